/**
 * Every journey module, in one list: a journey joins the three engines by being imported here (see
 * docs/browsers.md).
 */
import './navigation.journey';
import './errors.journey';
import './account.journey';
import './toasts.journey';
import './colorMode.journey';
import './updates.journey';
import './a11y.journey';

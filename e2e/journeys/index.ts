/** Every journey module, in one list: a new journey joins the three engines by being imported here. */
import './navigation.journey';
import './errors.journey';

/**
 * The repeated text and box styles as Panda text styles and recipes (wired in panda.config.ts), so a
 * page names what a thing is (`textStyle: 'pageTitle'`, `card()`, `alert({ tone: 'error' })`) instead of
 * restating its font sizes and borders.
 */
import { defineRecipe, defineTextStyles } from '@pandacss/dev';

export const textStyles = defineTextStyles({
  /** The landing page's hero heading. */
  display: {
    value: {
      fontSize: { base: '3xl', md: '5xl' },
      fontWeight: 'extrabold',
      lineHeight: '1.1',
      letterSpacing: '-0.02em',
    },
  },
  /** Every other page's main heading. */
  pageTitle: {
    value: {
      fontSize: { base: '2xl', md: '3xl' },
      fontWeight: 'bold',
      lineHeight: '1.2',
      letterSpacing: '-0.01em',
    },
  },
  /** A card's or section's heading. */
  sectionTitle: { value: { fontSize: 'lg', fontWeight: 'bold' } },
  /** The status code on the error page. */
  errorStatus: {
    value: {
      fontSize: { base: '7xl', sm: '8xl' },
      fontWeight: 'extrabold',
      lineHeight: '1',
      letterSpacing: '-0.04em',
    },
  },
  /** The status message under it. */
  errorTitle: { value: { fontSize: { base: 'xl', sm: '2xl' }, fontWeight: 'semibold' } },
});

export const cardRecipe = defineRecipe({
  className: 'card',
  base: {
    bg: 'bg',
    borderWidth: '1px',
    borderColor: 'border',
    borderRadius: 'card',
    p: { base: '4', md: '6' },
    boxShadow: 'sm',
  },
});

/** A message box in the flow of a page (a failed sign-in); `role` stays the page's choice. */
export const alertRecipe = defineRecipe({
  className: 'alert',
  base: { borderRadius: 'control', p: '3', fontSize: 'sm', fontWeight: 'medium' },
  variants: {
    tone: {
      error: { bg: 'error.subtle', color: 'error.text' },
    },
  },
  defaultVariants: { tone: 'error' },
});

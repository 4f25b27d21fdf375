import { css } from '../../styled-system/css';

export interface ErrorViewProps {
  readonly statusCode: number;
  readonly statusMessage: string;
  readonly message: string;
}

export const errorLayout = css({
  minH: '100dvh',
  display: 'grid',
  alignContent: 'center',
  justifyItems: 'center',
  textAlign: 'center',
  gap: '2',
  px: '6',
  py: '10',
  bg: 'bg',
});
export const errorStatus = css({
  fontSize: { base: '7xl', sm: '8xl' },
  fontWeight: 'extrabold',
  lineHeight: '1',
  color: 'fg.highlighted',
  letterSpacing: '-0.04em',
  _focus: { outline: 'none' },
});
export const errorTitle = css({
  fontSize: { base: 'xl', sm: '2xl' },
  fontWeight: 'semibold',
  color: 'fg.highlighted',
});
export const errorMessage = css({ color: 'fg.muted', maxW: '40rem', overflowWrap: 'anywhere' });

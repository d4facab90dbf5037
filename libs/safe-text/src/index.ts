export { boundedText, wellFormed } from './safe-text';

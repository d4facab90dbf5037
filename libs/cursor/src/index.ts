export { CursorCodec, InvalidCursorError } from './cursor';

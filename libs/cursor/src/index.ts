export { CursorCodec, InvalidCursorError } from './cursor';
export { cursorPosition, isText, isTextPair, isTextTuple, keysetPage, pageSize, type KeysetPage, type PositionCheck } from './keyset-page';

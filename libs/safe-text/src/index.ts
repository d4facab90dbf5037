export { boundedText, wellFormed } from './safe-text';
export { CONTROL_CHARACTER_CLASS, FREE_TEXT, LINE_TEXT } from './control-characters';
export { invalidArgument, type FieldProblem } from './invalid-argument';

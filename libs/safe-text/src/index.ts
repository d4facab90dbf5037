export { boundedText, wellFormed } from './safe-text';
export { FREE_TEXT, LINE_TEXT, type TextRule } from './control-characters';
export { invalidArgument, type FieldProblem } from './invalid-argument';

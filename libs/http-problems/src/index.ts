export { HttpProblem } from './problem';
export { sendProblem, problemHandler, notFoundHandler, type ProblemFormat } from './express';
export { operationOutcome } from './operation-outcome';
export { LINGER, isClosing } from './lingering-close';

export { HttpProblem, type ProblemFieldError } from './problem';
export { sendProblem, problemHandler, notFoundHandler } from './express';

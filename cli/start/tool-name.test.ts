import { toolNameProblem } from './tool-name';

it.each(['approve_refund', 'getUser', 'DATA_EXPORT_v2', 'admin.tools.list', 'user-profile', 'a', 'x'.repeat(128)])(
  'allows %s',
  (name) => expect(toolNameProblem(name)).toBeUndefined(),
);

it.each([
  ['has space', 'a tool name is 1-128 characters of A-Z a-z 0-9 _ - . only; "has space" has a space'],
  ['refund/order', 'a tool name is 1-128 characters of A-Z a-z 0-9 _ - . only; "refund/order" has "/"'],
  ['réfund,x', 'a tool name is 1-128 characters of A-Z a-z 0-9 _ - . only; "réfund,x" has "é", ","'],
  ['tab\there', 'a tool name is 1-128 characters of A-Z a-z 0-9 _ - . only; "tab\there" has whitespace ("\\t")'],
  ['', 'a tool name is 1-128 characters of A-Z a-z 0-9 _ - . only, not empty'],
  ['x'.repeat(129), 'a tool name is 1-128 characters of A-Z a-z 0-9 _ - . only; this one has 129'],
])('refuses %j', (name, problem) => expect(toolNameProblem(name)).toBe(problem));

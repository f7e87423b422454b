/** requestTarget: a request's path and query as express routes them, whatever the client wrote. */
import { describe, expect, it } from 'vitest';
import { requestTarget } from '../../src/bindings/shared/http.js';

describe('requestTarget', () => {
  it.each([
    ['/tasks?pageSize=2', '/tasks', '?pageSize=2'],
    ['/', '/', ''],
    // `new URL` reads these as protocol-relative URLs: it throws on the first two, finds a host in the third.
    ['//', '//', ''],
    ['//:80', '//:80', ''],
    ['//evil.example/tasks?x=1', '//evil.example/tasks', '?x=1'],
    ['/tasks/a%2Fb%ZZ?q=%E0%A4%A', '/tasks/a%2Fb%ZZ', '?q=%E0%A4%A'],
    ['/a?b#c', '/a', '?b'],
    ['/a#b?c', '/a', ''],
    ['http://host.example/tasks?pageSize=1', '/tasks', '?pageSize=1'],
    ['*', '*', ''],
    [undefined, '/', ''],
  ])('reads %j as path %j and query %j', (target, pathname, search) => {
    expect(requestTarget(target)).toMatchObject({ pathname, search });
  });

  it('never throws on undecodable query escapes; URLSearchParams keeps what it cannot decode', () => {
    expect(requestTarget('/x?token=%ZZ&a=1').query.get('token')).toBe('%ZZ');
    expect(requestTarget('/x?token=%ZZ&a=1').query.get('a')).toBe('1');
  });
});

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { brokerServices } from './definitions';
import { provision } from './provision';

/** Per-service users provisioned on the local broker in a vhost of their own, for a test run. */
export interface TestBroker {
  /** The AMQP URL a service connects with as its own user. */
  urlOf(service: string): string;
  /** Deletes the vhost (with everything in it) and the users. */
  remove(): void;
}

/**
 * Provisions the broker definitions for the names of `namespace` (`<namespace>finance`, …) in the vhost
 * `<namespace>broker`, with random passwords: guest and every other test keep their own vhost untouched.
 */
export function provisionTestBroker(namespace: string): TestBroker {
  const vhost = `${namespace}broker`;
  const passwords = Object.fromEntries(brokerServices().map((service) => [service, randomBytes(16).toString('hex')]));
  provision({ vhost, namespace }, passwords);
  const rabbitmqctl = (...args: string[]) => execFileSync('rabbitmqctl', args, { stdio: 'pipe' });
  return {
    urlOf: (service) => {
      const url = new URL(process.env.TEST_AMQP_URL ?? 'amqp://127.0.0.1:5672');
      url.username = encodeURIComponent(`${namespace}${service}`);
      url.password = passwords[service];
      url.pathname = `/${encodeURIComponent(vhost)}`;
      return url.toString();
    },
    remove: () => {
      rabbitmqctl('delete_vhost', vhost);
      for (const service of brokerServices()) rabbitmqctl('delete_user', `${namespace}${service}`);
    },
  };
}

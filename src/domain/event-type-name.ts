// What an event type's name may be, on its own (no imports): the config's event catalog checks names with
// it without pulling in the rest of the event domain, which itself reads the config's name rule.

export const EVENT_TYPE_MAX_LENGTH = 128;

const EVENT_TYPE = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

/** Is `value` an event type: dot-separated segments of `A-Z a-z 0-9 _ -`, at most 128 characters? */
export function isEventType(value: string): boolean {
  return value.length <= EVENT_TYPE_MAX_LENGTH && EVENT_TYPE.test(value);
}

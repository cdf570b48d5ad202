'use strict';
// Benchmark settings read from the environment.

/** The number in environment variable `name`, `fallback` when unset; throws when `valid` refuses it. */
function envNumber(name, fallback, valid) {
  const raw = process.env[name];
  const value = raw === undefined ? fallback : Number(raw);
  if (!valid(value)) throw new Error(`${name} is not valid: "${raw}"`);
  return value;
}

module.exports = { envNumber };

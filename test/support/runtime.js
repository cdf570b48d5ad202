'use strict';
// Jest's runtime (jest.config.js `runtime`), keeping the code V8 compiles for each module in the
// memory of the Jest worker, from one test file to the next.
//
// Jest loads every module afresh in each test file's realm, and compiles it with a `vm.Script` of
// its own (its `importModuleDynamically` callback makes each script distinct), so V8's own cache
// never serves a later file: about 15 s of a whole run's workers went to compiling the same
// modules again. Here a module's first script hands V8's cache of it (`createCachedData`, taken
// when its file ends, so it holds the functions the file ran) to the same module's scripts in the
// worker's later files, which V8 then does not compile again. Kept in memory only: reading such a
// cache from disk cost more than it saved. Not under coverage (STEWARD_TEST_COVERAGE=1), where V8
// counts per function as it compiles.
const vm = require('node:vm');
const { default: Runtime } = require('jest-runtime');
const { handlePotentialSyntaxError } = require('@jest/transform');
const { startFile } = require('./timing');

const enabled = process.env.STEWARD_TEST_COVERAGE !== '1';

/** By file name: the wrapped source compiled, and V8's cache of it once a file has run it. */
const compiled = new Map();

class CompiledCodeRuntime extends Runtime {
  /** This realm's scripts whose cache is still to be taken when its file ends. */
  #fresh = [];
  /** Records this file's time (timing.js, STEWARD_TEST_TIMING) when it ends. */
  #timed;

  constructor(config, environment, resolver, transform, cacheFS, coverageOptions, testPath, ...rest) {
    super(config, environment, resolver, transform, cacheFS, coverageOptions, testPath, ...rest);
    this.#timed = startFile(testPath, config.displayName?.name);
  }

  createScriptFromCode(scriptSource, filename) {
    if (!enabled) return super.createScriptFromCode(scriptSource, filename);
    try {
      const source = this.wrapCodeInModuleWrapper(scriptSource);
      const known = compiled.get(filename);
      const cachedData = known && known.source === source ? known.data : undefined;
      const scriptFilename = this._resolver.isCoreModule(filename)
        ? `jest-nodejs-core-${filename}`
        : filename;
      const script = new vm.Script(source, {
        columnOffset: this._fileTransforms.get(filename)?.wrapperLength,
        displayErrors: true,
        filename: scriptFilename,
        cachedData,
        importModuleDynamically: async (specifier) => {
          const context = this._environment.getVmContext?.();
          if (!context) throw new Error('Test environment has been torn down');
          const module = await this.resolveModule(specifier, scriptFilename, context);
          return this.linkAndEvaluateModule(module);
        },
      });
      if (!cachedData || script.cachedDataRejected) this.#fresh.push({ filename, source, script });
      return script;
    } catch (error) {
      throw handlePotentialSyntaxError(error);
    }
  }

  teardown() {
    for (const { filename, source, script } of this.#fresh.splice(0))
      compiled.set(filename, { source, data: script.createCachedData() });
    super.teardown();
    this.#timed();
  }
}

module.exports = CompiledCodeRuntime;

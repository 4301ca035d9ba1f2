import type { SecurityAnalyzer } from '../confirmation/security-analyzer.js';
import { type AnalyzerSetting, resolveAnalyzer, type SecurityAnalyzerInput } from './analyzer-setting.js';

/** A conversation's security analyzer: as given (a fork inherits it), in force, and as persisted. */
export class SecuritySettings {
  #input: SecurityAnalyzerInput;
  #analyzer: SecurityAnalyzer | undefined;
  #setting: AnalyzerSetting = 'llm';

  constructor(input: SecurityAnalyzerInput) {
    this.#input = input;
    this.set(input);
  }

  set(input: SecurityAnalyzerInput): void {
    this.#input = input;
    const { analyzer, setting } = resolveAnalyzer(input);
    this.#analyzer = analyzer;
    this.#setting = setting;
  }

  get input(): SecurityAnalyzerInput {
    return this.#input;
  }

  get analyzer(): SecurityAnalyzer | undefined {
    return this.#analyzer;
  }

  /** How base_state.json records it. */
  get setting(): AnalyzerSetting {
    return this.#setting;
  }
}

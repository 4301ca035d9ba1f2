/** The code-execution container a reply ran in (its `container`). */
export interface AnthropicContainer {
  id: string;
  /** When Anthropic drops it (ISO 8601); a container past it is not named again. */
  expires_at?: string;
}

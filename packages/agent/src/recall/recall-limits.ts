/** How much one recall may return. Every cut is said in the result, never silent. */
export interface RecallLimits {
  /** Events returned when the model does not ask for fewer (`max_results`). Default 10. */
  maxResults: number;
  /** Characters of one event's text; longer ones lose their middle (marked). Default 2,000. */
  maxEventChars: number;
  /** Characters of all events together; events past it are listed by index and id only. Default 8,000. */
  maxTotalChars: number;
}

export const DEFAULT_RECALL_LIMITS: Readonly<RecallLimits> = Object.freeze({
  maxResults: 10,
  maxEventChars: 2000,
  maxTotalChars: 8000,
});

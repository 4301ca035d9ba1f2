/** Tool-call arguments are Python json.dumps text in the reference's outputs: compare them as parsed JSON. */
export function withParsedToolArguments(messages: readonly unknown[]): unknown[] {
  return messages.map((message) => {
    const { tool_calls, ...rest } = message as { tool_calls?: { function: { arguments: string } }[] };
    if (tool_calls === undefined) return rest;
    return {
      ...rest,
      tool_calls: tool_calls.map((call) => ({
        ...call,
        function: { ...call.function, arguments: JSON.parse(call.function.arguments) },
      })),
    };
  });
}

/**
 * Tool-call arguments are Python json.dumps text in the reference's outputs: compare them as parsed JSON. Arguments that
 * are not JSON (a model's broken call, recorded as it came) are compared as the text they are.
 */
export function withParsedToolArguments(messages: readonly unknown[]): unknown[] {
  return messages.map((message) => {
    const { tool_calls, ...rest } = message as { tool_calls?: { function: { arguments: string } }[] };
    if (tool_calls === undefined) return rest;
    return {
      ...rest,
      tool_calls: tool_calls.map((call) => ({
        ...call,
        function: { ...call.function, arguments: parsedOrText(call.function.arguments) },
      })),
    };
  });
}

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { unparsed: text };
  }
}

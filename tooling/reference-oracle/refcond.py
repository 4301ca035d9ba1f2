"""The reference LLMSummarizingCondenser's choice of events to forget (and its prompt), for random settings.

Usage: refcond.py <conversation dirs...> > ref-cond.jsonl; then xcond.mts compares @x/agent's condenser with it.
"""
import sys, os, json, glob, random
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'refderive.py')).read().split('def derive')[0].replace('"jinja2",', ''))
from openhands.sdk.event.base import Event
from openhands.sdk.context.view import View
from openhands.sdk.context.condenser.llm_summarizing_condenser import LLMSummarizingCondenser
from openhands.sdk.context.prompts import render_template
from openhands.sdk.utils.truncate import maybe_truncate
import openhands.sdk.context.condenser.llm_summarizing_condenser as m
prompts = os.path.join(os.path.dirname(m.__file__), 'prompts')
rng = random.Random(3)
for d in sys.argv[1:]:
    events = [Event.model_validate_json(open(f).read()) for f in sorted(glob.glob(d + '/events/event-*.json'))]
    view = View.from_events(events)
    for trial in range(3):
        keep_first = rng.randint(0, 3)
        max_size = rng.randint(2 * keep_first + 4, 2 * keep_first + 14)
        max_str = rng.choice([None, 40, 200])
        c = LLMSummarizingCondenser.model_construct(max_size=max_size, keep_first=keep_first, max_tokens=None, llm=None, max_event_str_length=max_str)
        out = {'dir': d, 'max_size': max_size, 'keep_first': keep_first, 'max_event_str_length': max_str}
        reasons = c.get_condensation_reasons(view)
        out['reasons'] = sorted(r.name for r in reasons)
        if reasons:
            try:
                forgotten, offset = c._get_forgotten_events(view)
                out['forgotten'] = [e.id for e in forgotten]; out['offset'] = offset
                if forgotten:
                    strs = [maybe_truncate(str(e), truncate_after=max_str) for e in forgotten]
                    out['prompt'] = render_template(prompts, 'summarizing_prompt.j2', events=strs)
            except Exception as e:
                out['error'] = type(e).__name__ + ': ' + str(e)[:200]
        print(json.dumps(out, default=str))

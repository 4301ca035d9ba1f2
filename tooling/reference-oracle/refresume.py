"""The reference continuing conversations x wrote: resumes each <root>/<id as 32 hex> with its LocalConversation
(genloop.py's scripted LLM, with the tools its base_state.json's agent names: the reference refuses to resume with
fewer) and runs one more turn.

Usage: refresume.py <root>   (REFERENCE_DIR as for the other scripts; ORACLE_DIR if run from a copy elsewhere)
"""
import sys, os, uuid, random, json
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'genloop.py')).read().split('\ndef run(')[0])
root = sys.argv[1]
for name in sorted(os.listdir(root)):
    try:
        rng = random.Random(int(name[:8], 16))
        llm = ScriptLLM(model='gpt-4o', usage_id='agent'); llm._rng = rng; llm._ws = root.rstrip('/') + '_ws'
        os.makedirs(llm._ws, exist_ok=True)
        recorded = json.load(open(os.path.join(root, name, 'base_state.json'))).get('agent', {}).get('tools', [])
        agent = Agent(llm=llm, tools=[Tool(name=t['name']) for t in recorded])
        conv = Conversation(agent=agent, workspace=llm._ws, persistence_dir=root, conversation_id=uuid.UUID(name), visualizer=None)
        n = len(conv.state.events)
        conv.send_message('reference continues ' + words(rng))
        conv.run()
        print(name, 'events', n, '->', len(conv.state.events))
        conv.close()
    except Exception as e:
        import traceback; traceback.print_exc(limit=3)
        print(name, 'FAILED', type(e).__name__, str(e)[:500])

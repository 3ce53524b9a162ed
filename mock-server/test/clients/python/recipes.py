"""The Python bindings' side of failure-recipes-python.test.ts.

One command per run, answers printed as JSON lines; the login comes from TEAMCHAT_SITE, TEAMCHAT_EMAIL and
TEAMCHAT_API_KEY. The bindings (pip package `zulip`) are used as they ship: nothing here retries or waits.
"""

import json
import os
import sys

import zulip


def emit(value):
    print(json.dumps(value), flush=True)


def client():
    return zulip.Client(
        email=os.environ["TEAMCHAT_EMAIL"],
        api_key=os.environ["TEAMCHAT_API_KEY"],
        site=os.environ["TEAMCHAT_SITE"],
    )


def main(command, argument):
    if command == "send":
        # One call: whatever the bindings do on an error answer (retry, return it) happens inside it.
        emit(client().send_message(json.loads(argument)))
    elif command == "events":
        # The bindings' own event loop; it never returns, so the first message whose content is `argument` ends the run.
        def on_event(event):
            if event["type"] == "message":
                emit(event)
                if event["message"]["content"] == argument:
                    sys.exit(0)

        client().call_on_each_event(on_event, event_types=["message"])
    else:
        raise SystemExit(f"unknown command {command}")


main(sys.argv[1], sys.argv[2])

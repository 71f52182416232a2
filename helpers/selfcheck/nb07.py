"""Self-check questions for notebook 07 · reducers and parallel writes."""

from __future__ import annotations

from .format import Question

QUESTIONS = (
    Question(
        id="plain-key-two-writes",
        prompt="`node_a` and `node_b` both start at `START`, and both return `{\"last_checked\": ...}`. "
               "What does `graph.invoke` do?",
        code=("class CheckState(TypedDict):\n"
              "    last_checked: str\n"
              "\n"
              "graph.invoke({\"last_checked\": \"\"})"),
        choices=("It raises InvalidUpdateError: the key can receive only one value per step",
                 "last_checked holds node_b's value: the last write wins",
                 "last_checked holds both values in a list"),
        answer="It raises InvalidUpdateError: the key can receive only one value per step",
        explanation="A key without a reducer keeps one value, so two writes in one step fail the whole step "
                    "(INVALID_CONCURRENT_GRAPH_UPDATE).",
        section="section 1, Two writes in one step, no reducer",
        why_not={"last_checked holds node_b's value: the last write wins":
                     "LangGraph does not guess which write you meant; nothing is silently overwritten."},
    ),
    Question(
        id="applied-in-task-order",
        prompt=("One reply calls `lookup(A1030)` first and `lookup(A1024)` second; both write "
                "`checked: Annotated[list, operator.add]`. The A1024 lookup finishes first. What does `checked` "
                "hold after the step?"),
        choices=('["A1030", "A1024"]', '["A1024", "A1030"]', "it differs from run to run"),
        answer='["A1030", "A1024"]',
        explanation="A step's writes are applied in task order, here the position of the call in the message, "
                    "not in the order the tasks finished.",
        section="section 2, Does the finish order matter?",
        why_not={'["A1024", "A1030"]': "Completion order is not the order in which writes are applied.",
                 "it differs from run to run": "The order is fixed when the step is planned, so it is repeatable."},
    ),
    Question(
        id="replace-by-id",
        prompt="What does `add_messages` return here?",
        code=('history = [HumanMessage("hi", id="1"), AIMessage("draft", id="2")]\n'
              'add_messages(history, [AIMessage("final", id="2")])'),
        choices=("two messages: hi, final", "three messages: hi, draft, final", "ValueError: duplicate id '2'"),
        answer="two messages: hi, final",
        explanation="add_messages replaces a message whose id is already in the list and appends only new ids, "
                    "so a repeated write is harmless.",
        section="section 3, add_messages",
    ),
    Question(
        id="order-independent-merge",
        prompt=("Two parallel tools write audit entries with the same `key` but different events. Which property "
                "makes a merge reducer safe here?"),
        choices=("Its result is the same whichever write is applied first",
                 "It keeps the entry that arrived first",
                 "It appends every entry, so nothing is lost"),
        answer="Its result is the same whichever write is applied first",
        explanation="merge_audit breaks ties by comparing the entries themselves, never their arrival, so both "
                    "write orders give one result.",
        section="section 4, A custom merge reducer",
        why_not={"It keeps the entry that arrived first": "That is merge_first_seen, whose result depends on the order.",
                 "It appends every entry, so nothing is lost": "operator.add keeps the duplicate a retry wrote."},
    ),
    Question(
        id="exclusive-field",
        prompt=("`refund_stage` uses a reducer that keeps the last value, and one reply calls `submit_refund` "
                "then `cancel_refund`. What happens?"),
        choices=("No error: the stage is the value of the call listed last, and the conflict is hidden",
                 "InvalidUpdateError, as for a plain key",
                 "The stage becomes \"cancelled\" because it is the safer value"),
        answer="No error: the stage is the value of the call listed last, and the conflict is hidden",
        explanation="Keeping the last value removes the error and the fact that two tools disagreed; an exclusive "
                    "field needs a policy (reject the second write, or arbitrate in one node).",
        section="section 5, Exclusive fields",
        why_not={"InvalidUpdateError, as for a plain key": "The reducer is exactly what stops that error."},
    ),
)

"""Self-check questions for notebook 07 · reducers and parallel writes."""

from __future__ import annotations

from ..i18n import N_
from .format import Question

QUESTIONS = (
    Question(
        id="plain-key-two-writes",
        prompt=N_("`node_a` and `node_b` both start at `START`, and both return `{\"last_checked\": ...}`. "
                  "What does `graph.invoke` do?"),
        code=("class CheckState(TypedDict):\n"
              "    last_checked: str\n"
              "\n"
              "graph.invoke({\"last_checked\": \"\"})"),
        choices=(N_("It raises InvalidUpdateError: the key can receive only one value per step"),
                 N_("last_checked holds node_b's value: the last write wins"),
                 N_("last_checked holds both values in a list")),
        answer=N_("It raises InvalidUpdateError: the key can receive only one value per step"),
        explanation=N_("A key without a reducer keeps one value, so two writes in one step fail the whole step "
                       "(INVALID_CONCURRENT_GRAPH_UPDATE)."),
        section=N_("section 1, Two writes in one step, no reducer"),
        why_not={N_("last_checked holds node_b's value: the last write wins"):
                     N_("LangGraph does not guess which write you meant; nothing is silently overwritten.")},
    ),
    Question(
        id="applied-in-task-order",
        prompt=N_("One reply calls `lookup(A1030)` first and `lookup(A1024)` second; both write "
                  "`checked: Annotated[list, operator.add]`. The A1024 lookup finishes first. What does `checked` "
                  "hold after the step?"),
        choices=(N_('["A1030", "A1024"]'), N_('["A1024", "A1030"]'), N_("it differs from run to run")),
        answer=N_('["A1030", "A1024"]'),
        explanation=N_("A step's writes are applied in task order, here the position of the call in the message, "
                       "not in the order the tasks finished."),
        section=N_("section 2, Does the finish order matter?"),
        why_not={N_('["A1024", "A1030"]'): N_("Completion order is not the order in which writes are applied."),
                 N_("it differs from run to run"): N_("The order is fixed when the step is planned, so it is repeatable.")},
    ),
    Question(
        id="replace-by-id",
        prompt=N_("What does `add_messages` return here?"),
        code=('history = [HumanMessage("hi", id="1"), AIMessage("draft", id="2")]\n'
              'add_messages(history, [AIMessage("final", id="2")])'),
        choices=(N_("two messages: hi, final"), N_("three messages: hi, draft, final"),
                 N_("ValueError: duplicate id '2'")),
        answer=N_("two messages: hi, final"),
        explanation=N_("add_messages replaces a message whose id is already in the list and appends only new ids, "
                       "so a repeated write is harmless."),
        section=N_("section 3, `add_messages`: the reducer behind `messages`"),
    ),
    Question(
        id="order-independent-merge",
        prompt=N_("Two parallel tools write audit entries with the same `key` but different events. Which property "
                  "makes a merge reducer safe here?"),
        choices=(N_("Its result is the same whichever write is applied first"),
                 N_("It keeps the entry that arrived first"),
                 N_("It appends every entry, so nothing is lost")),
        answer=N_("Its result is the same whichever write is applied first"),
        explanation=N_("merge_audit breaks ties by comparing the entries themselves, never their arrival, so both "
                       "write orders give one result."),
        section=N_("section 4, A custom merge reducer: an audit list that de-duplicates"),
        why_not={N_("It keeps the entry that arrived first"): N_("That is merge_first_seen, whose result depends on the order."),
                 N_("It appends every entry, so nothing is lost"): N_("operator.add keeps the duplicate a retry wrote.")},
    ),
    Question(
        id="exclusive-field",
        prompt=N_("`refund_stage` uses a reducer that keeps the last value, and one reply calls `submit_refund` "
                  "then `cancel_refund`. What happens?"),
        choices=(N_("No error: the stage is the value of the call listed last, and the conflict is hidden"),
                 N_("InvalidUpdateError, as for a plain key"),
                 N_("The stage becomes \"cancelled\" because it is the safer value")),
        answer=N_("No error: the stage is the value of the call listed last, and the conflict is hidden"),
        explanation=N_("Keeping the last value removes the error and the fact that two tools disagreed; an exclusive "
                       "field needs a policy (reject the second write, or arbitrate in one node)."),
        section=N_("section 5, Exclusive fields: the refund stage"),
        why_not={N_("InvalidUpdateError, as for a plain key"): N_("The reducer is exactly what stops that error.")},
    ),
)

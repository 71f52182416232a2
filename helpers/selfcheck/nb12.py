"""Self-check questions for notebook 12 · the Deep Agents control plane.

Each right answer is run on the pins (deepagents 0.7.32) by ``tests/test_selfcheck_questions.py``.
"""

from __future__ import annotations

from ..i18n import N_
from .format import Question

QUESTIONS = (
    Question(
        id="write-todos-on-the-pins",
        prompt=N_("`create_deep_agent(model=model)` with no extra middleware, on deepagents 0.7.32. The model calls "
                  "`write_todos` with a plan. What comes back?"),
        choices=(N_("A ToolMessage \"Updated todo list ...\", and todos in the state"),
                 N_("An error ToolMessage (write_todos is not a valid tool), and no todos in the state"),
                 N_("The run raises: the tool is unknown")),
        answer=N_("An error ToolMessage (write_todos is not a valid tool), and no todos in the state"),
        explanation=N_("On 0.7.32 write_todos is not built in (only the Codex profile adds it); ToolNode answers an "
                       "unknown tool with an error ToolMessage. Add TodoListMiddleware()."),
        section=N_("section 1, `write_todos` is not built in on 0.7.32"),
        why_not={N_("A ToolMessage \"Updated todo list ...\", and todos in the state"):
                     N_("That is what you get once you pass middleware=[TodoListMiddleware()].")},
    ),
    Question(
        id="sub-agent-input",
        prompt=N_("The parent calls `task(description=..., subagent_type=\"order-researcher\")`. What does the sub-agent's model receive?"),
        choices=(N_("The parent's whole history, then the description"),
                 N_("The user's last message and the description"),
                 N_("Its own system prompt and the task description, nothing else")),
        answer=N_("Its own system prompt and the task description, nothing else"),
        explanation=N_("task starts the sub-agent with fresh messages (its prompt and the description); its other state, "
                       "files included, is a copy of the parent's. Its last text and changed keys come back in one Command."),
        section=N_("section 2, `task`: a sub-agent in its own context"),
    ),
    Question(
        id="stringifying-executor",
        prompt=N_("A home-made tools node wraps every result as `ToolMessage(str(result))`. One step runs "
                  "`write_todos`, `task` (whose sub-agent writes a note) and `write_file`, on `StateBackend`. Which "
                  "state changes survive?"),
        choices=(N_("All three"), N_("Only write_file's file"), N_("The plan and the note, not write_file's file"), N_("None")),
        answer=N_("Only write_file's file"),
        explanation=N_("write_todos and task carry their changes in a Command, which str() turns into text; write_file "
                       "writes files through the backend, not through its return value."),
        section=N_("section 3, What an executor that stringifies results breaks"),
        why_not={N_("None"): N_("StateBackend writes the files channel directly, whatever the node does with the result."),
                 N_("The plan and the note, not write_file's file"):
                     N_("It is the other way round: the Commands are lost, the direct write is not.")},
    ),
    Question(
        id="rejected-write",
        prompt=N_("`create_deep_agent(..., interrupt_on={\"write_file\": True}, checkpointer=...)` pauses on a "
                  "`write_file` call, and the reviewer sends `{\"decisions\": [{\"type\": \"reject\", \"message\": "
                  "\"Ask the refund lead first.\"}]}`. What happens?"),
        choices=(N_("The write runs, and the model is told it was rejected"),
                 N_("The tool never runs; an error ToolMessage with the reason answers the call; no file exists"),
                 N_("The call is left without an answer, and the run ends")),
        answer=N_("The tool never runs; an error ToolMessage with the reason answers the call; no file exists"),
        explanation=N_("HumanInTheLoopMiddleware writes the rejection itself in after_model, before the tools node, so "
                       "the call has one answer and files stays empty."),
        section=N_("section 4, `interrupt_on`: a person approves the write"),
    ),
    Question(
        id="new-message-while-paused",
        prompt=N_("A deep agent waits for approval of a `write_file` call, and the user sends a new message instead "
                  "of a resume. What does the next run do with the waiting call?"),
        choices=(N_("PatchToolCallsMiddleware answers it with an error ToolMessage, and the write does not happen"),
                 N_("It runs the write first, then answers the new message"),
                 N_("The next model request is rejected: the call has no ToolMessage")),
        answer=N_("PatchToolCallsMiddleware answers it with an error ToolMessage, and the write does not happen"),
        explanation=N_("Before each run, PatchToolCallsMiddleware answers every call that has no ToolMessage, so the "
                       "history is valid; the pending approval is dropped."),
        section=N_("section 5.2, Repairing an unanswered tool call"),
        why_not={N_("The next model request is rejected: the call has no ToolMessage"):
                     N_("That is plain create_agent (notebook 10, Pitfalls); the harness patches the history.")},
    ),
)

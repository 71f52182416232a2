"""Self-check questions for notebook 12 · the Deep Agents control plane.

Each right answer is run on the pins (deepagents 0.7.32) by ``tests/test_selfcheck_questions.py``.
"""

from __future__ import annotations

from .format import Question

QUESTIONS = (
    Question(
        id="write-todos-on-the-pins",
        prompt=("`create_deep_agent(model=model)` with no extra middleware, on deepagents 0.7.32. The model calls "
                "`write_todos` with a plan. What comes back?"),
        choices=("A ToolMessage \"Updated todo list ...\", and todos in the state",
                 "An error ToolMessage (write_todos is not a valid tool), and no todos in the state",
                 "The run raises: the tool is unknown"),
        answer="An error ToolMessage (write_todos is not a valid tool), and no todos in the state",
        explanation="On 0.7.32 write_todos is not built in (only the Codex profile adds it); ToolNode answers an "
                    "unknown tool with an error ToolMessage. Add TodoListMiddleware().",
        section="section 1, write_todos is not built in on 0.7.32",
        why_not={"A ToolMessage \"Updated todo list ...\", and todos in the state":
                     "That is what you get once you pass middleware=[TodoListMiddleware()]."},
    ),
    Question(
        id="sub-agent-input",
        prompt="The parent calls `task(description=..., subagent_type=\"order-researcher\")`. What does the sub-agent's model receive?",
        choices=("The parent's whole history, then the description",
                 "The user's last message and the description",
                 "Its own system prompt and the task description, nothing else"),
        answer="Its own system prompt and the task description, nothing else",
        explanation="task starts the sub-agent with fresh messages (its prompt and the description); its other state, "
                    "files included, is a copy of the parent's. Its last text and changed keys come back in one Command.",
        section="section 2, task: a sub-agent in its own context",
    ),
    Question(
        id="stringifying-executor",
        prompt=("A home-made tools node wraps every result as `ToolMessage(str(result))`. One step runs "
                "`write_todos`, `task` (whose sub-agent writes a note) and `write_file`, on `StateBackend`. Which "
                "state changes survive?"),
        choices=("All three", "Only write_file's file", "The plan and the note, not write_file's file", "None"),
        answer="Only write_file's file",
        explanation="write_todos and task carry their changes in a Command, which str() turns into text; write_file "
                    "writes files through the backend, not through its return value.",
        section="section 3, What an executor that stringifies results breaks",
        why_not={"None": "StateBackend writes the files channel directly, whatever the node does with the result.",
                 "The plan and the note, not write_file's file":
                     "It is the other way round: the Commands are lost, the direct write is not."},
    ),
    Question(
        id="rejected-write",
        prompt=("`create_deep_agent(..., interrupt_on={\"write_file\": True}, checkpointer=...)` pauses on a "
                "`write_file` call, and the reviewer sends `{\"decisions\": [{\"type\": \"reject\", \"message\": "
                "\"Ask the refund lead first.\"}]}`. What happens?"),
        choices=("The write runs, and the model is told it was rejected",
                 "The tool never runs; an error ToolMessage with the reason answers the call; no file exists",
                 "The call is left without an answer, and the run ends"),
        answer="The tool never runs; an error ToolMessage with the reason answers the call; no file exists",
        explanation="HumanInTheLoopMiddleware writes the rejection itself in after_model, before the tools node, so "
                    "the call has one answer and files stays empty.",
        section="section 4, interrupt_on: a person approves the write",
    ),
    Question(
        id="new-message-while-paused",
        prompt=("A deep agent waits for approval of a `write_file` call, and the user sends a new message instead "
                "of a resume. What does the next run do with the waiting call?"),
        choices=("PatchToolCallsMiddleware answers it with an error ToolMessage, and the write does not happen",
                 "It runs the write first, then answers the new message",
                 "The next model request is rejected: the call has no ToolMessage"),
        answer="PatchToolCallsMiddleware answers it with an error ToolMessage, and the write does not happen",
        explanation="Before each run, PatchToolCallsMiddleware answers every call that has no ToolMessage, so the "
                    "history is valid; the pending approval is dropped.",
        section="section 5.2, Repairing an unanswered tool call",
        why_not={"The next model request is rejected: the call has no ToolMessage":
                     "That is plain create_agent (notebook 10, Pitfalls); the harness patches the history."},
    ),
)

"""RefundService.submit_or_replay says whether a submit created the request or replayed an earlier one."""

from helpers.domain import RefundService, Submission, refund_key


def _submit(service, amount=100.0, key=None):
    return service.submit_or_replay("A1024", amount, user_id="user-42",
                                    idempotency_key=key or refund_key("A1024", amount))


def test_first_submit_is_not_a_replay_and_a_repeat_is():
    service = RefundService()
    first = _submit(service)
    again = _submit(service)
    assert isinstance(first, Submission) and first.replayed is False
    assert again.replayed is True and again.request is first.request
    assert len(service.requests) == 1


def test_a_new_key_is_not_a_replay_and_submit_returns_the_request_itself():
    service = RefundService()
    _submit(service, 100.0)
    other = _submit(service, 20.0)
    assert other.replayed is False and other.request.request_id == "RF-0002"
    plain = service.submit("A1024", 20.0, user_id="user-42", idempotency_key=refund_key("A1024", 20.0))
    assert plain is other.request

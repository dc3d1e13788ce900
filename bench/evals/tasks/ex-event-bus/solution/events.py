"""Publishing named events to the handlers that subscribed to them."""


class PublishError(Exception):
    """Handlers raised while an event was published; ``errors`` holds what they raised."""

    def __init__(self, errors):
        super().__init__(f"{len(errors)} handler(s) failed")
        self.errors = list(errors)


class EventBus:
    """Handlers by event name."""

    def __init__(self):
        self._subscriptions = {}
        self._last_id = 0

    def subscribe(self, event, handler):
        if not callable(handler):
            raise TypeError("handler must be callable")
        self._last_id += 1
        self._subscriptions[self._last_id] = (event, handler)
        return self._last_id

    def unsubscribe(self, subscription_id):
        return self._subscriptions.pop(subscription_id, None) is not None

    def publish(self, event, *args, **kwargs):
        results, errors = [], []
        handlers = [h for name, h in self._subscriptions.values() if name == event]
        for handler in handlers:
            try:
                results.append(handler(*args, **kwargs))
            except Exception as error:
                errors.append(error)
        if errors:
            raise PublishError(errors)
        return results

    def count(self, event):
        return sum(1 for name, _ in self._subscriptions.values() if name == event)

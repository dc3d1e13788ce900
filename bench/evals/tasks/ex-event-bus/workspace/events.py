"""Publishing named events to the handlers that subscribed to them."""


class PublishError(Exception):
    """Handlers raised while an event was published; ``errors`` holds what they raised."""

    def __init__(self, errors):
        super().__init__(f"{len(errors)} handler(s) failed")
        self.errors = list(errors)


class EventBus:
    """Handlers by event name."""

    def __init__(self):
        raise NotImplementedError

    def subscribe(self, event, handler):
        raise NotImplementedError

    def unsubscribe(self, subscription_id):
        raise NotImplementedError

    def publish(self, event, *args, **kwargs):
        raise NotImplementedError

    def count(self, event):
        raise NotImplementedError

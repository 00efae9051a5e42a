"""The worker's consumer: Celery's own, less one fault of Celery 5.7.0 that ends the worker
when the broker goes away (``CELERY_WORKER_CONSUMER`` names it).

When the connection to Redis is lost, 5.7.0's consumer collects the connection, which
takes the client away from its transport, and then closes it. The old channel still has
work to do with that client: closing it restores the messages it holds unacknowledged (a
countdown task: a live round's classification window, a PDF refresh), and a task that
finishes after the reconnection acknowledges its message through it. Without the client
each fails with an AttributeError, which is not a connection error, so the worker stops
for good ("Unrecoverable error: 'NoneType' object has no attribute 'hostname'") and its
beat with it. Here the collected transport keeps its client: the old channel's late work
meets a connection error while Redis is down, which Celery handles, and reaches Redis once
it is back.
"""

from celery.worker.consumer import Consumer as CeleryConsumer


class Consumer(CeleryConsumer):
    def on_connection_error_after_connected(self, exc):
        connection = self.connection
        transport = getattr(connection, "_transport", None)
        if transport is not None:
            collect = connection.collect

            def collect_keeping_client(*args, **kwargs):
                try:
                    return collect(*args, **kwargs)
                finally:
                    transport.client = connection

            connection.collect = collect_keeping_client
        super().on_connection_error_after_connected(exc)

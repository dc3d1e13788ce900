class Database:
    def connect(self):
        pass  # TODO: retry when the server is down

    def close(self):
        pass

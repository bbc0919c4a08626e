"""Documents over an index object handed in by another package: the index's `client` is only guessed to be
a Redis client (its pipelines are called with Redis-only methods), so its JSON namespace is not read."""


class DocumentStore:
    def __init__(self, index, storage):
        self._index = index
        self._storage = storage

    def load(self, ids):
        if self._storage == "hash":
            with self._index.client.pipeline(transaction=False) as pipe:
                for doc_id in ids:
                    pipe.hgetall(f"mem:doc:{doc_id}")  # error: CMD005
                return pipe.execute()
        else:
            with self._index.client.json().pipeline(transaction=False) as pipe:
                for doc_id in ids:
                    pipe.get(f"mem:doc:{doc_id}", ".")
                return pipe.execute()

    def load_json(self, ids):
        return self._index.client.json().mget(ids, ".")

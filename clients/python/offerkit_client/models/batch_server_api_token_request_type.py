from enum import StrEnum


class BatchServerAPITokenRequestType(StrEnum):
    SERVER_API_TOKEN = "server-api-token"

    def __str__(self) -> str:
        return str(self.value)

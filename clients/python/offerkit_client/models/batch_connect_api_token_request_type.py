from enum import StrEnum


class BatchConnectAPITokenRequestType(StrEnum):
    CONNECT_API_TOKEN = "connect-api-token"

    def __str__(self) -> str:
        return str(self.value)

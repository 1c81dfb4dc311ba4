from enum import StrEnum


class PlannedRequestMethod(StrEnum):
    POST = "POST"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class CodeClaimChannel(StrEnum):
    CLAIM = "claim"
    EXPORT = "export"

    def __str__(self) -> str:
        return str(self.value)

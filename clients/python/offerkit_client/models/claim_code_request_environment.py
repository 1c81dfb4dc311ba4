from enum import StrEnum


class ClaimCodeRequestEnvironment(StrEnum):
    PRODUCTION = "production"
    SANDBOX = "sandbox"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class AdvancedCommerceOneTimeChargeRequestOperation(StrEnum):
    CREATE_ONE_TIME_CHARGE = "CREATE_ONE_TIME_CHARGE"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class AlternateProductBillingPlanType(StrEnum):
    BILLED_UPFRONT = "BILLED_UPFRONT"
    MONTHLY = "MONTHLY"

    def __str__(self) -> str:
        return str(self.value)

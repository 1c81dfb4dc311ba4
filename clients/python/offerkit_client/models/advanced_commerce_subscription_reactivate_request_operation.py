from enum import StrEnum


class AdvancedCommerceSubscriptionReactivateRequestOperation(StrEnum):
    REACTIVATE_SUBSCRIPTION = "REACTIVATE_SUBSCRIPTION"

    def __str__(self) -> str:
        return str(self.value)

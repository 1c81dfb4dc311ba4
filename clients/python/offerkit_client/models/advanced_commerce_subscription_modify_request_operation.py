from enum import StrEnum


class AdvancedCommerceSubscriptionModifyRequestOperation(StrEnum):
    MODIFY_SUBSCRIPTION = "MODIFY_SUBSCRIPTION"

    def __str__(self) -> str:
        return str(self.value)

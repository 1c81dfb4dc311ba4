from enum import StrEnum


class AdvancedCommerceSubscriptionCreateRequestOperation(StrEnum):
    CREATE_SUBSCRIPTION = "CREATE_SUBSCRIPTION"

    def __str__(self) -> str:
        return str(self.value)

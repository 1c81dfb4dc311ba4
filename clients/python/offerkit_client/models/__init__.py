"""Contains all the data models used in inputs/outputs"""

from .advanced_commerce_add_item import AdvancedCommerceAddItem
from .advanced_commerce_change_item import AdvancedCommerceChangeItem
from .advanced_commerce_change_reason import AdvancedCommerceChangeReason
from .advanced_commerce_descriptors import AdvancedCommerceDescriptors
from .advanced_commerce_effective import AdvancedCommerceEffective
from .advanced_commerce_info import AdvancedCommerceInfo
from .advanced_commerce_modify_descriptors import AdvancedCommerceModifyDescriptors
from .advanced_commerce_offer import AdvancedCommerceOffer
from .advanced_commerce_offer_period import AdvancedCommerceOfferPeriod
from .advanced_commerce_offer_reason import AdvancedCommerceOfferReason
from .advanced_commerce_one_time_charge_item import AdvancedCommerceOneTimeChargeItem
from .advanced_commerce_one_time_charge_request import AdvancedCommerceOneTimeChargeRequest
from .advanced_commerce_one_time_charge_request_operation import AdvancedCommerceOneTimeChargeRequestOperation
from .advanced_commerce_one_time_charge_request_version import AdvancedCommerceOneTimeChargeRequestVersion
from .advanced_commerce_period import AdvancedCommercePeriod
from .advanced_commerce_period_change import AdvancedCommercePeriodChange
from .advanced_commerce_request import AdvancedCommerceRequest
from .advanced_commerce_request_info import AdvancedCommerceRequestInfo
from .advanced_commerce_sku_item import AdvancedCommerceSKUItem
from .advanced_commerce_subscription_create_request import AdvancedCommerceSubscriptionCreateRequest
from .advanced_commerce_subscription_create_request_operation import AdvancedCommerceSubscriptionCreateRequestOperation
from .advanced_commerce_subscription_create_request_version import AdvancedCommerceSubscriptionCreateRequestVersion
from .advanced_commerce_subscription_item import AdvancedCommerceSubscriptionItem
from .advanced_commerce_subscription_modify_request import AdvancedCommerceSubscriptionModifyRequest
from .advanced_commerce_subscription_modify_request_operation import AdvancedCommerceSubscriptionModifyRequestOperation
from .advanced_commerce_subscription_modify_request_version import AdvancedCommerceSubscriptionModifyRequestVersion
from .advanced_commerce_subscription_reactivate_request import AdvancedCommerceSubscriptionReactivateRequest
from .advanced_commerce_subscription_reactivate_request_operation import (
    AdvancedCommerceSubscriptionReactivateRequestOperation,
)
from .advanced_commerce_subscription_reactivate_request_version import (
    AdvancedCommerceSubscriptionReactivateRequestVersion,
)
from .alternate_product import AlternateProduct
from .alternate_product_billing_plan_type import AlternateProductBillingPlanType
from .batch_advanced_commerce_request import BatchAdvancedCommerceRequest
from .batch_advanced_commerce_request_type import BatchAdvancedCommerceRequestType
from .batch_connect_api_token_request import BatchConnectAPITokenRequest
from .batch_connect_api_token_request_type import BatchConnectAPITokenRequestType
from .batch_introductory_offer_eligibility_request import BatchIntroductoryOfferEligibilityRequest
from .batch_introductory_offer_eligibility_request_type import BatchIntroductoryOfferEligibilityRequestType
from .batch_legacy_promotional_offer_request import BatchLegacyPromotionalOfferRequest
from .batch_legacy_promotional_offer_request_type import BatchLegacyPromotionalOfferRequestType
from .batch_promotional_offer_request import BatchPromotionalOfferRequest
from .batch_promotional_offer_request_type import BatchPromotionalOfferRequestType
from .batch_server_api_token_request import BatchServerAPITokenRequest
from .batch_server_api_token_request_type import BatchServerAPITokenRequestType
from .bearer_token import BearerToken
from .campaign import Campaign
from .campaign_offer import CampaignOffer
from .campaign_plan import CampaignPlan
from .campaign_plan_app import CampaignPlanApp
from .campaign_problem import CampaignProblem
from .campaign_status import CampaignStatus
from .campaign_status_app_store_connect_item import CampaignStatusAppStoreConnectItem
from .campaign_status_app_store_connect_item_kind import CampaignStatusAppStoreConnectItemKind
from .campaign_status_app_store_connect_item_offer_kind import CampaignStatusAppStoreConnectItemOfferKind
from .campaign_status_app_store_connect_item_state import CampaignStatusAppStoreConnectItemState
from .campaign_status_offers_item import CampaignStatusOffersItem
from .campaign_status_offers_item_batches_item import CampaignStatusOffersItemBatchesItem
from .campaign_status_offers_item_batches_item_environment import CampaignStatusOffersItemBatchesItemEnvironment
from .campaign_status_offers_item_batches_item_kind import CampaignStatusOffersItemBatchesItemKind
from .campaign_status_offers_item_totals_item import CampaignStatusOffersItemTotalsItem
from .campaign_status_offers_item_totals_item_environment import CampaignStatusOffersItemTotalsItemEnvironment
from .campaign_status_usage import CampaignStatusUsage
from .campaign_validation import CampaignValidation
from .claim_code_request import ClaimCodeRequest
from .claim_code_request_environment import ClaimCodeRequestEnvironment
from .code_claim import CodeClaim
from .code_claim_channel import CodeClaimChannel
from .code_claim_environment import CodeClaimEnvironment
from .code_claim_kind import CodeClaimKind
from .connect_api_token_request import ConnectAPITokenRequest
from .health import Health
from .health_status import HealthStatus
from .introductory_offer_eligibility_request import IntroductoryOfferEligibilityRequest
from .legacy_promotional_offer_request import LegacyPromotionalOfferRequest
from .legacy_promotional_offer_signature import LegacyPromotionalOfferSignature
from .open_api_document import OpenAPIDocument
from .open_api_document_openapi import OpenAPIDocumentOpenapi
from .plan_campaign_request import PlanCampaignRequest
from .planned_request import PlannedRequest
from .planned_request_body import PlannedRequestBody
from .planned_request_method import PlannedRequestMethod
from .problem import Problem
from .problem_type import ProblemType
from .promotional_offer import PromotionalOffer
from .promotional_offer_request import PromotionalOfferRequest
from .promotional_offer_signature_v1 import PromotionalOfferSignatureV1
from .readiness import Readiness
from .readiness_status import ReadinessStatus
from .realtime_request_body import RealtimeRequestBody
from .realtime_response_body import RealtimeResponseBody
from .retention_message import RetentionMessage
from .server_api_token_request import ServerAPITokenRequest
from .signature_batch_request import SignatureBatchRequest
from .signature_batch_response import SignatureBatchResponse
from .signature_batch_result import SignatureBatchResult
from .signature_batch_result_type import SignatureBatchResultType
from .signed_jws import SignedJWS
from .supplied_custom_codes import SuppliedCustomCodes
from .validate_campaign_request import ValidateCampaignRequest

__all__ = (
    "AdvancedCommerceAddItem",
    "AdvancedCommerceChangeItem",
    "AdvancedCommerceChangeReason",
    "AdvancedCommerceDescriptors",
    "AdvancedCommerceEffective",
    "AdvancedCommerceInfo",
    "AdvancedCommerceModifyDescriptors",
    "AdvancedCommerceOffer",
    "AdvancedCommerceOfferPeriod",
    "AdvancedCommerceOfferReason",
    "AdvancedCommerceOneTimeChargeItem",
    "AdvancedCommerceOneTimeChargeRequest",
    "AdvancedCommerceOneTimeChargeRequestOperation",
    "AdvancedCommerceOneTimeChargeRequestVersion",
    "AdvancedCommercePeriod",
    "AdvancedCommercePeriodChange",
    "AdvancedCommerceRequest",
    "AdvancedCommerceRequestInfo",
    "AdvancedCommerceSKUItem",
    "AdvancedCommerceSubscriptionCreateRequest",
    "AdvancedCommerceSubscriptionCreateRequestOperation",
    "AdvancedCommerceSubscriptionCreateRequestVersion",
    "AdvancedCommerceSubscriptionItem",
    "AdvancedCommerceSubscriptionModifyRequest",
    "AdvancedCommerceSubscriptionModifyRequestOperation",
    "AdvancedCommerceSubscriptionModifyRequestVersion",
    "AdvancedCommerceSubscriptionReactivateRequest",
    "AdvancedCommerceSubscriptionReactivateRequestOperation",
    "AdvancedCommerceSubscriptionReactivateRequestVersion",
    "AlternateProduct",
    "AlternateProductBillingPlanType",
    "BatchAdvancedCommerceRequest",
    "BatchAdvancedCommerceRequestType",
    "BatchConnectAPITokenRequest",
    "BatchConnectAPITokenRequestType",
    "BatchIntroductoryOfferEligibilityRequest",
    "BatchIntroductoryOfferEligibilityRequestType",
    "BatchLegacyPromotionalOfferRequest",
    "BatchLegacyPromotionalOfferRequestType",
    "BatchPromotionalOfferRequest",
    "BatchPromotionalOfferRequestType",
    "BatchServerAPITokenRequest",
    "BatchServerAPITokenRequestType",
    "BearerToken",
    "Campaign",
    "CampaignOffer",
    "CampaignPlan",
    "CampaignPlanApp",
    "CampaignProblem",
    "CampaignStatus",
    "CampaignStatusAppStoreConnectItem",
    "CampaignStatusAppStoreConnectItemKind",
    "CampaignStatusAppStoreConnectItemOfferKind",
    "CampaignStatusAppStoreConnectItemState",
    "CampaignStatusOffersItem",
    "CampaignStatusOffersItemBatchesItem",
    "CampaignStatusOffersItemBatchesItemEnvironment",
    "CampaignStatusOffersItemBatchesItemKind",
    "CampaignStatusOffersItemTotalsItem",
    "CampaignStatusOffersItemTotalsItemEnvironment",
    "CampaignStatusUsage",
    "CampaignValidation",
    "ClaimCodeRequest",
    "ClaimCodeRequestEnvironment",
    "CodeClaim",
    "CodeClaimChannel",
    "CodeClaimEnvironment",
    "CodeClaimKind",
    "ConnectAPITokenRequest",
    "Health",
    "HealthStatus",
    "IntroductoryOfferEligibilityRequest",
    "LegacyPromotionalOfferRequest",
    "LegacyPromotionalOfferSignature",
    "OpenAPIDocument",
    "OpenAPIDocumentOpenapi",
    "PlanCampaignRequest",
    "PlannedRequest",
    "PlannedRequestBody",
    "PlannedRequestMethod",
    "Problem",
    "ProblemType",
    "PromotionalOffer",
    "PromotionalOfferRequest",
    "PromotionalOfferSignatureV1",
    "Readiness",
    "ReadinessStatus",
    "RealtimeRequestBody",
    "RealtimeResponseBody",
    "RetentionMessage",
    "ServerAPITokenRequest",
    "SignatureBatchRequest",
    "SignatureBatchResponse",
    "SignatureBatchResult",
    "SignatureBatchResultType",
    "SignedJWS",
    "SuppliedCustomCodes",
    "ValidateCampaignRequest",
)

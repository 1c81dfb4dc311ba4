#!/usr/bin/env python3
"""A strict local stand-in for the App Store Connect API's offer endpoints and look-ups (a TEST TOOL).

`offerkit codes apply` sends a campaign's plan to App Store Connect: offer codes, and promotional,
introductory and win-back offers of subscriptions; no test can reach Apple, so the tests run this
server instead. It is at least as strict as Apple's documentation: every request body is validated
against Apple's own 4.4.1 request schema and against a strict copy that refuses unknown members;
every JSON answer is validated against Apple's response schema before it is sent; bearer tokens are
verified (ES256, `kid`, `aud`, `iss` or `sub`, lifetime); the documented rules of each kind of offer
are enforced with Apple-format error bodies; the lists a client reads after an unknown outcome are
served (offer codes, and a subscription's promotional, introductory and win-back offers); and a
control API under `/_standin/` exposes the state, changes the configuration and injects faults
(dropped connections, 429s, 5xx, slow answers). See README.md next to this file for the rules, the
error codes (which are documented by Apple and which are guesses) and the control API.

Usage:
  app_store_connect.py --schemas SCHEMAS_JSON --public-key PEM --key-id KEY_ID
                       (--issuer-id UUID | --individual)
                       [--products PRODUCTS_JSON | --products-from-campaign CAMPAIGN_JSON] [--catalog CATALOG_JSON]
                       [--paths PATHS_JSON] [--port 0] [--today YYYY-MM-DD] [--verbose]
                       [--accept-opaque-price-points]

Prints exactly one line, `listening on http://127.0.0.1:PORT`, to stdout once it accepts
connections, and serves until SIGTERM or SIGINT. Exit 2: unusable arguments or input files.
"""

import argparse
import base64
import calendar
import datetime
import decimal
import json
import os
import random
import re
import secrets
import sys
import threading
import time
import uuid
from collections import deque
from urllib.parse import parse_qsl, urlencode

sys.dont_write_bytecode = True  # a test tool: leave no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Interop"))
sys.path.insert(0, HERE)
import standin_support  # noqa: E402  (what both stand-ins share: tokens, faults, control API, HTTP, start-up)
import validate_asc_requests as asc_schemas  # noqa: E402  (Apple's schemas, plain and strict)
from standin_support import (  # noqa: E402
    Reply, TokenError, check_lifetime, media_type, require_seconds, strict_json_loads)

TOKEN_MAX_LIFETIME_SECONDS = 1200
ACTIVE_OFFERS_PER_APP = 10
PRODUCTION_CODES_PER_QUARTER = 1_000_000
SANDBOX_CODES_PER_QUARTER = 10_000
ONE_TIME_USE_EXPIRY_MONTHS = 6
CUSTOM_CODE_MAX_LENGTH = 64
CODE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
CODE_LENGTH = 11
MAX_BODY_BYTES = 16 * 1024 * 1024
PAGE_DEFAULT, PAGE_MAX = 20, 200
LOCAL_ID = re.compile(r"^\$\{[^{}]+\}$")
TERRITORY = re.compile(r"^[A-Z]{3}$")
CUSTOM_CODE = re.compile(r"^[A-Za-z0-9]+$")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")

# Promotional, introductory and win-back offers (README.md lists each rule with its source):
# "You can have up to 10 subscription offers active at any given time per subscription" (StoreKit,
# Setting Up Subscription Offers).
PROMOTIONAL_OFFERS_PER_SUBSCRIPTION = 10
# "You can have one current and one future introductory offer set up per country or region" (App Store
# Connect Help, Reference > Pricing and availability).
INTRODUCTORY_OFFERS_PER_TERRITORY = 2
# "a maximum of 350 win-back offers per subscription", "a maximum of 5 win-back offers per storefront, per
# subscription at a time" (App Store Connect Help, Set up win-back offers).
WIN_BACK_OFFERS_PER_SUBSCRIPTION = 350
WIN_BACK_OFFERS_PER_TERRITORY_AT_A_TIME = 5
# WinBackOfferCreateRequest.Data.Attributes (App Store Connect API): "Possible values are 1 to 24 (months
# as integers), 36 (3 years), 48 (4 years), and 60 (5 years)"; the wait between offers "Possible values are
# 2 to 24 months"; "Minimum length for a win-back offer is 3 days"; referenceName "alphanumeric characters,
# spaces, periods, and underscores, up to 65 characters"; offerId "alphanumeric characters, periods, and
# underscores, up to 100 characters".
WIN_BACK_PAID_MONTHS = frozenset(range(1, 25)) | {36, 48, 60}
WIN_BACK_WAIT_MONTHS = range(2, 25)
WIN_BACK_MINIMUM_DAYS = 3
WIN_BACK_REFERENCE_NAME = re.compile(r"[A-Za-z0-9 ._]{1,65}")  # used with fullmatch
WIN_BACK_OFFER_ID = re.compile(r"[A-Za-z0-9._]{1,100}")  # used with fullmatch
# Not in the stored copies of Apple's pages (reported from App Store Connect Help, as OfferKit's validator
# cites it): the months since a customer last subscribed range over 1 to 24.
WIN_BACK_SINCE_MONTHS = range(1, 25)
# Durations per mode, reported from App Store Connect Help's table of supported durations (OfferKit's
# validator applies the same reading): pay up front lasts a month to a year; pay as you go charges the
# subscription's own period, a year at most in all; a free trial lasts any SubscriptionOfferDuration.
PAY_UP_FRONT_DURATIONS = frozenset({"ONE_MONTH", "TWO_MONTHS", "THREE_MONTHS", "SIX_MONTHS", "ONE_YEAR"})
PAY_AS_YOU_GO_MAXIMUM_PERIODS = {"ONE_WEEK": 12, "ONE_MONTH": 12, "TWO_MONTHS": 6, "THREE_MONTHS": 4,
                                 "SIX_MONTHS": 2, "ONE_YEAR": 1}

NOT_AUTHORIZED_DETAIL = ("Provide a properly configured and signed bearer token, and make sure that it has not "
                         "expired. Learn more about Generating Tokens for API Requests "
                         "https://developer.apple.com/go/?id=api-generating-tokens")


# ---------------------------------------------------------------------------------------------
# Resource kinds and their wire shapes
# ---------------------------------------------------------------------------------------------

class Kind:
    """One ASC resource type the stand-in stores: what it belongs to and how it looks on the wire."""

    def __init__(self, type_, role, family, version="v1", **extra):
        self.type = type_
        # "offer" (offer codes), "oneTimeUse", "custom", "price", "subscriptionOffer" (promotional and
        # win-back offers: prices inline, an identifier unique among the subscription's offers),
        # "introductory" (one territory and price point each)
        self.role = role
        self.family = family        # "subscription" or "inAppPurchase"
        self.version = version
        for key, value in extra.items():
            setattr(self, key, value)


KINDS = {
    "subscriptionOfferCodes": Kind(
        "subscriptionOfferCodes", "offer", "subscription", product_type="subscriptions",
        product_relationship="subscription", price_type="subscriptionOfferCodePrices",
        price_point_relationship="subscriptionPricePoint", price_point_type="subscriptionPricePoints"),
    "inAppPurchaseOfferCodes": Kind(
        "inAppPurchaseOfferCodes", "offer", "inAppPurchase", product_type="inAppPurchases",
        product_relationship="inAppPurchase", price_type="inAppPurchaseOfferPrices",
        price_point_relationship="pricePoint", price_point_type="inAppPurchasePricePoints"),
    "subscriptionOfferCodeOneTimeUseCodes": Kind(
        "subscriptionOfferCodeOneTimeUseCodes", "oneTimeUse", "subscription", offer_type="subscriptionOfferCodes"),
    "inAppPurchaseOfferCodeOneTimeUseCodes": Kind(
        "inAppPurchaseOfferCodeOneTimeUseCodes", "oneTimeUse", "inAppPurchase", offer_type="inAppPurchaseOfferCodes"),
    "subscriptionOfferCodeCustomCodes": Kind(
        "subscriptionOfferCodeCustomCodes", "custom", "subscription", offer_type="subscriptionOfferCodes"),
    "inAppPurchaseOfferCodeCustomCodes": Kind(
        "inAppPurchaseOfferCodeCustomCodes", "custom", "inAppPurchase", offer_type="inAppPurchaseOfferCodes"),
    "subscriptionOfferCodePrices": Kind(
        "subscriptionOfferCodePrices", "price", "subscription", offer_type="subscriptionOfferCodes",
        price_point_relationship="subscriptionPricePoint", price_point_type="subscriptionPricePoints"),
    "inAppPurchaseOfferPrices": Kind(
        "inAppPurchaseOfferPrices", "price", "inAppPurchase", offer_type="inAppPurchaseOfferCodes",
        price_point_relationship="pricePoint", price_point_type="inAppPurchasePricePoints"),
    # `identifier`, `name_attribute`, `periods`: the attributes holding the offer identifier, the reference name
    # and the number of periods; `shows_subscription`: whether Apple's response schema has a subscription
    # relationship.
    "subscriptionPromotionalOffers": Kind(
        "subscriptionPromotionalOffers", "subscriptionOffer", "subscription", product_type="subscriptions",
        product_relationship="subscription", price_type="subscriptionPromotionalOfferPrices",
        price_point_relationship="subscriptionPricePoint", price_point_type="subscriptionPricePoints",
        identifier="offerCode", name_attribute="name", periods="numberOfPeriods", shows_subscription=True),
    "winBackOffers": Kind(
        "winBackOffers", "subscriptionOffer", "subscription", product_type="subscriptions",
        product_relationship="subscription", price_type="winBackOfferPrices",
        price_point_relationship="subscriptionPricePoint", price_point_type="subscriptionPricePoints",
        identifier="offerId", name_attribute="referenceName", periods="periodCount", shows_subscription=False),
    "subscriptionIntroductoryOffers": Kind(
        "subscriptionIntroductoryOffers", "introductory", "subscription", product_type="subscriptions",
        product_relationship="subscription", price_point_relationship="subscriptionPricePoint",
        price_point_type="subscriptionPricePoints", periods="numberOfPeriods"),
    "subscriptionPromotionalOfferPrices": Kind(
        "subscriptionPromotionalOfferPrices", "price", "subscription", offer_type="subscriptionPromotionalOffers",
        price_point_relationship="subscriptionPricePoint", price_point_type="subscriptionPricePoints"),
    "winBackOfferPrices": Kind(
        "winBackOfferPrices", "price", "subscription", offer_type="winBackOffers",
        price_point_relationship="subscriptionPricePoint", price_point_type="subscriptionPricePoints"),
}

PRODUCT_COLLECTIONS = {"subscriptions": "subscriptionOfferCodes", "inAppPurchases": "inAppPurchaseOfferCodes"}

# The look-ups a campaign's ids come from (GET lists of the `subscription_offers` set): path template -> what
# the catalog lists there.
LOOKUPS = {
    "/v1/apps": "apps",
    "/v1/apps/{id}/subscriptionGroups": "subscriptionGroups",
    "/v1/subscriptionGroups/{id}/subscriptions": "subscriptions",
    "/v1/apps/{id}/inAppPurchasesV2": "inAppPurchases",
    "/v1/subscriptions/{id}/pricePoints": "subscriptionPricePoints",
    "/v2/inAppPurchases/{id}/pricePoints": "inAppPurchasePricePoints",
}

# The products themselves (GETs of the `subscription_offers` set): `codes apply` reads each product's `productId`
# before it creates offers. path template -> the collection, whose ids are `products`.
PRODUCT_READS = {"/v1/subscriptions/{id}": "subscriptions", "/v2/inAppPurchases/{id}": "inAppPurchases"}

# The offer operations of the `subscription_offers` set the stand-in serves (with the look-ups and the product
# reads, all it loads of that set's paths: the set's other operations answer 404 as any other path).
SUBSCRIPTION_OFFER_OPERATIONS = (
    ("post", "/v1/subscriptionPromotionalOffers"), ("get", "/v1/subscriptionPromotionalOffers/{id}"),
    ("get", "/v1/subscriptionPromotionalOffers/{id}/prices"), ("get", "/v1/subscriptions/{id}/promotionalOffers"),
    ("post", "/v1/subscriptionIntroductoryOffers"), ("get", "/v1/subscriptions/{id}/introductoryOffers"),
    ("post", "/v1/winBackOffers"), ("get", "/v1/winBackOffers/{id}"), ("get", "/v1/winBackOffers/{id}/prices"),
    ("get", "/v1/subscriptions/{id}/winBackOffers"),
)

# Query parameters served beyond `limit`, `cursor` and `fields[…]`, per operation, with the `include` values
# served; every other parameter Apple documents answers 501 (so a client that needs it notices at once).
SERVED_PARAMETERS = {
    "/v1/subscriptions/{id}/pricePoints": {"filter[territory]", "include"},
    "/v2/inAppPurchases/{id}/pricePoints": {"filter[territory]", "include"},
    "/v1/subscriptions/{id}/promotionalOffers": {"filter[territory]", "include", "limit[prices]"},
    "/v1/subscriptionPromotionalOffers/{id}": {"include", "limit[prices]"},
    "/v1/subscriptionPromotionalOffers/{id}/prices": {"filter[territory]", "include"},
    "/v1/subscriptions/{id}/introductoryOffers": {"filter[territory]", "include"},
    "/v1/subscriptions/{id}/winBackOffers": {"include", "limit[prices]"},
    "/v1/winBackOffers/{id}": {"include", "limit[prices]"},
    "/v1/winBackOffers/{id}/prices": {"filter[territory]", "include"},
}
SERVED_INCLUDES = {"territory", "subscriptionPricePoint", "prices"}  # not `subscription` (501)
PRICES_INCLUDED_DEFAULT = 50  # `limit[prices]` when not given: its documented maximum (the stand-in's choice)

# (collection of the parent, relationship name) -> kind of the related resources
RELATED = {
    ("subscriptions", "promotionalOffers"): "subscriptionPromotionalOffers",
    ("subscriptions", "introductoryOffers"): "subscriptionIntroductoryOffers",
    ("subscriptions", "winBackOffers"): "winBackOffers",
    ("subscriptionPromotionalOffers", "prices"): "subscriptionPromotionalOfferPrices",
    ("winBackOffers", "prices"): "winBackOfferPrices",
    ("subscriptions", "offerCodes"): "subscriptionOfferCodes",
    ("inAppPurchases", "offerCodes"): "inAppPurchaseOfferCodes",
    ("subscriptionOfferCodes", "oneTimeUseCodes"): "subscriptionOfferCodeOneTimeUseCodes",
    ("subscriptionOfferCodes", "customCodes"): "subscriptionOfferCodeCustomCodes",
    ("subscriptionOfferCodes", "prices"): "subscriptionOfferCodePrices",
    ("inAppPurchaseOfferCodes", "oneTimeUseCodes"): "inAppPurchaseOfferCodeOneTimeUseCodes",
    ("inAppPurchaseOfferCodes", "customCodes"): "inAppPurchaseOfferCodeCustomCodes",
    ("inAppPurchaseOfferCodes", "prices"): "inAppPurchaseOfferPrices",
}


class Resource:
    """One stored resource. `attributes` hold what the API shows; the rest is bookkeeping."""

    def __init__(self, kind, id_, order, attributes, parent, product, created_on):
        self.kind = kind
        self.id = id_
        self.order = order
        self.attributes = attributes
        self.parent = parent          # (type, id): the product for offers, the offer for the others
        self.product = product        # (type, id) of the product
        self.created_on = created_on  # the stand-in's today at creation (for the quarter limits)
        self.prices = []              # offers: price resource ids, in the order sent
        self.relationships = {}       # prices and introductory offers: territory and price point
        self.values_seed = None       # one-time-use batches: the codes are drawn from this at creation
        self.values = None            # ... and materialized on the first ready GET
        self.values_requests = 0

    def public(self):
        """The resource as `GET /_standin/state` lists it."""
        entry = {"type": self.kind.type, "id": self.id, "order": self.order, "attributes": self.attributes,
                 "parent": {"type": self.parent[0], "id": self.parent[1]},
                 "product": {"type": self.product[0], "id": self.product[1]}, "createdOn": self.created_on}
        if self.kind.role in ("offer", "subscriptionOffer"):
            entry["prices"] = list(self.prices)
        if self.kind.role in ("price", "introductory"):
            entry["relationships"] = self.relationships
        if self.kind.role == "oneTimeUse":
            entry["valuesRequests"] = self.values_requests
        return entry


class Catalog:
    """What the look-ups list (`--catalog FILE`): apps with their subscription groups, subscriptions and in-app
    purchases, and the customer prices of each territory, from which every product's price points are made.

    {"apps": [{"id", "name", "bundleId", "sku", "primaryLocale",
               "subscriptionGroups": [{"id", "referenceName",
                                       "subscriptions": [{"id", "productId", "name", "state", "subscriptionPeriod",
                                                          "groupLevel"}]}],
               "inAppPurchases": [{"id", "productId", "name", "inAppPurchaseType", "state"}]}],
     "prices": {"USA": {"currency": "USD", "customerPrices": ["0.99", "1.99", ...]}, ...}}

    Every product has one price point per territory and customer price, in the catalog's order; its id is
    Apple-shaped (base64url JSON {"s": product id, "t": territory, "p": "10001" + its index}); proceeds are
    70 % of the price (subscriptions: `proceedsYear2` 85 %), rounded to the price's decimals.
    """

    APP_FIELDS = ("name", "bundleId", "sku", "primaryLocale")
    GROUP_FIELDS = ("referenceName",)
    SUBSCRIPTION_FIELDS = ("productId", "name", "state", "subscriptionPeriod", "groupLevel")
    PURCHASE_FIELDS = ("productId", "name", "inAppPurchaseType", "state")
    PRICE = re.compile(r"^[0-9]{1,12}(\.[0-9]{1,6})?$")

    def __init__(self, document):
        if not isinstance(document, dict) or set(document) - {"apps", "prices"}:
            raise ValueError('the catalog must be {"apps": [...], "prices": {...}}')
        self.apps, self.group_subscriptions, self.app_groups, self.app_purchases = [], {}, {}, {}
        self.subscription_ids, self.purchase_ids, seen = [], [], set()
        self.group_of, self.period_of = {}, {}  # subscription id -> its group's id, its subscriptionPeriod
        self.product_attributes = {}            # product id -> its attributes (productId, name, ...)
        self._points = {}                       # (product id, point id) -> price point, made on first use

        def entry(value, where, fields, type_):
            if not isinstance(value, dict) or not isinstance(value.get("id"), str) or not value["id"]:
                raise ValueError(f"{where} needs a non-empty string \"id\"")
            if value["id"] in seen:
                raise ValueError(f"{where}: the id {value['id']} is used twice")
            seen.add(value["id"])
            attributes = {name: value[name] for name in fields if name in value}
            return {"type": type_, "id": value["id"], "attributes": attributes}

        for a, app in enumerate(self._array(document, "apps", "the catalog")):
            where = f"apps[{a}]"
            self.apps.append(entry(app, where, self.APP_FIELDS, "apps"))
            groups = self.app_groups.setdefault(app["id"], [])
            for g, group in enumerate(self._array(app, "subscriptionGroups", where)):
                groups.append(entry(group, f"{where}.subscriptionGroups[{g}]", self.GROUP_FIELDS, "subscriptionGroups"))
                members = self.group_subscriptions.setdefault(group["id"], [])
                for i, subscription in enumerate(self._array(group, "subscriptions", f"{where}.subscriptionGroups[{g}]")):
                    members.append(entry(subscription, f"{where}.subscriptionGroups[{g}].subscriptions[{i}]",
                                         self.SUBSCRIPTION_FIELDS, "subscriptions"))
                    self.subscription_ids.append(subscription["id"])
                    self.product_attributes[subscription["id"]] = members[-1]["attributes"]
                    self.group_of[subscription["id"]] = group["id"]
                    self.period_of[subscription["id"]] = members[-1]["attributes"].get("subscriptionPeriod")
            purchases = self.app_purchases.setdefault(app["id"], [])
            for i, purchase in enumerate(self._array(app, "inAppPurchases", where)):
                purchases.append(entry(purchase, f"{where}.inAppPurchases[{i}]", self.PURCHASE_FIELDS, "inAppPurchases"))
                self.purchase_ids.append(purchase["id"])
                self.product_attributes[purchase["id"]] = purchases[-1]["attributes"]
        prices = document.get("prices", {})
        if not isinstance(prices, dict):
            raise ValueError("prices must be an object of territories")
        self.prices = {}
        for territory, entry_ in prices.items():
            if not TERRITORY.match(territory) or not isinstance(entry_, dict) \
                    or not isinstance(entry_.get("currency"), str) \
                    or not isinstance(entry_.get("customerPrices"), list) \
                    or not all(isinstance(p, str) and self.PRICE.match(p) for p in entry_["customerPrices"]):
                raise ValueError(f"prices.{territory} must be {{\"currency\": \"USD\", \"customerPrices\": "
                                 f"[\"0.99\", ...]}} under a 3-letter territory id")
            self.prices[territory] = entry_

    @staticmethod
    def _array(value, name, where):
        items = value.get(name, [])
        if not isinstance(items, list):
            raise ValueError(f"{where}.{name} must be an array")
        return items

    def products(self):
        return {"subscriptions": list(self.subscription_ids), "inAppPurchases": list(self.purchase_ids)}

    def currency(self, territory):
        return self.prices[territory]["currency"]

    def list(self, what, id_):
        """The resources listed at a look-up (`LOOKUPS`) under `id_`; None when `id_` is not in the catalog."""
        if what == "apps":
            return self.apps
        if what == "subscriptionGroups":
            return self.app_groups.get(id_)
        if what == "inAppPurchases":
            return self.app_purchases.get(id_)
        if what == "subscriptions":
            return self.group_subscriptions.get(id_)
        ids = self.subscription_ids if what == "subscriptionPricePoints" else self.purchase_ids
        if id_ not in ids:
            return None
        return [self._price_point(what, id_, territory, index, price)
                for territory, entry in self.prices.items()
                for index, price in enumerate(entry["customerPrices"])]

    def subscription_price_point(self, product_id, point_id):
        """The catalog's price point `point_id` of subscription `product_id` (as `list` makes it), or None."""
        if not self._points.get((product_id, None)):
            points = self.list("subscriptionPricePoints", product_id) or []
            self._points.update({(product_id, point["id"]): point for point in points})
            self._points[(product_id, None)] = True
        return self._points.get((product_id, point_id))

    @staticmethod
    def _price_point(type_, product_id, territory, index, price):
        code = json.dumps({"s": product_id, "t": territory, "p": str(10001 + index)}, separators=(",", ":"))
        point_id = base64.urlsafe_b64encode(code.encode()).decode().rstrip("=")
        amount = decimal.Decimal(price)
        exponent = amount.as_tuple().exponent

        def share(rate):
            return str((amount * decimal.Decimal(rate)).quantize(decimal.Decimal(1).scaleb(exponent),
                                                                 rounding=decimal.ROUND_HALF_EVEN))

        attributes = {"customerPrice": price, "proceeds": share("0.70")}
        if type_ == "subscriptionPricePoints":
            attributes["proceedsYear2"] = share("0.85")
        return {"type": type_, "id": point_id, "territory": territory, "attributes": attributes}


def created_date(today):
    """Now, on the stand-in's today (which --today or the configuration may move), in UTC."""
    now = datetime.datetime.now(datetime.timezone.utc)
    return datetime.datetime.combine(today, now.time(), tzinfo=datetime.timezone.utc).isoformat(timespec="milliseconds")


def add_months(day, months):
    """`day` plus whole calendar months, the day clamped to the end of the month (31 Aug + 6 = 28/29 Feb)."""
    month_index = day.month - 1 + months
    year, month = day.year + month_index // 12, month_index % 12 + 1
    return datetime.date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def quarter_of(day):
    return day.year, (day.month - 1) // 3


def json_pointer(parts):
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)


# ---------------------------------------------------------------------------------------------
# Errors in Apple's format
# ---------------------------------------------------------------------------------------------

class ApiError(Exception):
    """An answer in Apple's error format: `{"errors": [{id, status, code, title, detail, source}]}`."""

    def __init__(self, status, errors, headers=None, counter=None):
        super().__init__(f"{status} {errors[0]['code'] if errors else ''}")
        self.status = status
        self.errors = errors
        self.headers = headers or {}
        self.counter = counter

    @classmethod
    def one(cls, status, code, title, detail, pointer=None, parameter=None, headers=None, counter=None):
        return cls(status, [error_entry(status, code, title, detail, pointer, parameter)], headers, counter)

    def body(self):
        return {"errors": self.errors}


def error_entry(status, code, title, detail, pointer=None, parameter=None):
    entry = {"id": str(uuid.uuid4()), "status": str(status), "code": code, "title": title, "detail": detail}
    if pointer is not None:
        entry["source"] = {"pointer": pointer}
    elif parameter is not None:
        entry["source"] = {"parameter": parameter}
    return entry


def not_found(type_, id_):
    return ApiError.one(404, "NOT_FOUND", "The specified resource does not exist",
                        f"There is no resource of type '{type_}' with id '{id_}'")


def conflict(code, title, detail, pointer):
    return error_entry(409, code, title, detail, pointer)


def relationship_invalid(detail, pointer):
    return conflict("ENTITY_ERROR.RELATIONSHIP.INVALID",
                    "The provided entity includes a relationship with an invalid value", detail, pointer)


def attribute_invalid(detail, pointer):
    return conflict("ENTITY_ERROR.ATTRIBUTE.INVALID",
                    "The provided entity includes an attribute with an invalid value", detail, pointer)


def state_error(detail, pointer):
    return conflict("STATE_ERROR", "The request cannot be fulfilled because of the state of another resource.",
                    detail, pointer)


# ---------------------------------------------------------------------------------------------
# Apple's schemas and paths
# ---------------------------------------------------------------------------------------------

class SchemaBook:
    """Apple's 4.4.1 schemas (plain, and a strict copy without unknown members) and their validators.

    Reuses Tests/Interop/validate_asc_requests.py (the same registry and strict copy the plan checks use).
    """

    def __init__(self, schemas):
        self.checker = asc_schemas.Checker(schemas, {})
        self.schemas = schemas
        self._lock = threading.Lock()

    def validators(self, name):
        with self._lock:
            return self.checker.validators_for(name)

    def request_errors(self, name, body):
        """Apple-format 422 entries for every way `body` breaks schema `name` (plain or strict)."""
        plain, strict = self.validators(name)
        entries, seen = [], set()
        for validator, strict_pass in ((plain, False), (strict, True)):
            for error in validator.iter_errors(body):
                for pointer, code, title, detail in self._describe(error, strict_pass):
                    if (pointer, code) in seen:
                        continue
                    seen.add((pointer, code))
                    entries.append(error_entry(422, code, title, detail, pointer))
        entries.sort(key=lambda entry: entry["source"]["pointer"])
        return entries

    @staticmethod
    def _describe(error, strict_pass):
        path = list(error.absolute_path)
        if error.validator == "required" and isinstance(error.instance, dict):
            missing = [name for name in error.validator_value if name not in error.instance]
            for name in missing:
                yield (json_pointer(path + [name]), SchemaBook._code(path + [name], "REQUIRED"),
                       "The provided entity is missing a required field",
                       f"You must provide a value for '{json_pointer(path + [name])}' with this request")
            return
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            known = error.schema.get("properties", {})
            for name in error.instance:
                if name not in known:
                    yield (json_pointer(path + [name]), SchemaBook._code(path + [name], "UNKNOWN"),
                           "The provided entity includes an unknown field",
                           f"'{name}' is not a member of this request's resource in App Store Connect API 4.4.1")
            return
        suffix = "INVALID"
        yield (json_pointer(path), SchemaBook._code(path, suffix),
               "The provided entity includes a field with an invalid value",
               f"The value at '{json_pointer(path)}' is invalid: {error.message}"
               + (" (strict)" if strict_pass else ""))

    @staticmethod
    def _code(path, suffix):
        if path[:2] == ["data", "attributes"] and len(path) > 2:
            return f"ENTITY_ERROR.ATTRIBUTE.{suffix}"
        if path[:2] == ["data", "relationships"] and len(path) > 2:
            return f"ENTITY_ERROR.RELATIONSHIP.{suffix}"
        if path[:1] == ["included"]:
            return f"ENTITY_ERROR.INCLUDED.{suffix}"
        return f"ENTITY_ERROR.{suffix}"

    def response_failures(self, name, body):
        """Messages for every way our own answer breaks Apple's response schema (plain or strict)."""
        plain, strict = self.validators(name)
        failures = []
        for validator, label in ((plain, ""), (strict, " [strict]")):
            for error in validator.iter_errors(body):
                failures.append(f"{name}{label} {error.json_path}: {error.message}")
        return failures


class Route:
    """One operation of Apple's paths document."""

    def __init__(self, method, template, operation):
        self.method = method
        self.template = template
        self.operation_id = operation.get("operationId", "")
        self.parameters = {p["name"]: p for p in operation.get("parameters", []) if p.get("in") == "query"}
        self.success_status, self.success_schema = None, None
        for status, response in operation.get("responses", {}).items():
            if status.startswith("2"):
                self.success_status = int(status)
                # JSON when the operation answers JSON (price points also answer text/csv); None: text/csv only.
                json_content = response.get("content", {}).get("application/json")
                ref = json_content.get("schema", {}).get("$ref", "") if json_content else ""
                self.success_schema = ref.rsplit("/", 1)[-1] if json_content else None
        body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
        self.request_schema = body.get("schema", {}).get("$ref", "").rsplit("/", 1)[-1] or None
        parts = template.strip("/").split("/")
        self.segments = parts
        self.regex = re.compile("^/" + "/".join("([^/]+)" if p == "{id}" else re.escape(p) for p in parts) + "$")


class Routes:
    """The operations served (of Apple's paths documents): 404 for other paths, 405 for other methods."""

    def __init__(self, paths):
        self.routes = []
        for template, operations in paths.items():
            for method, operation in operations.items():
                if method in ("get", "post", "patch", "put", "delete"):
                    self.routes.append(Route(method.upper(), template, operation))

    def match(self, method, path):
        """(route, id) for `method path`; (None, template) when only other methods serve the path."""
        allowed, template = [], None
        for route in self.routes:
            found = route.regex.match(path)
            if not found:
                continue
            if route.method == method:
                return route, (found.group(1) if found.groups() else None)
            allowed.append(route.method)
            template = route.template
        if allowed:
            raise ApiError.one(405, "METHOD_NOT_ALLOWED", "The request method is not valid for the resource path.",
                               f"The request method {method} is not valid for the resource path {template}; "
                               f"allowed: {', '.join(sorted(set(allowed)))}",
                               headers={"Allow": ", ".join(sorted(set(allowed)))})
        raise ApiError.one(404, "NOT_FOUND", "The specified resource does not exist",
                           "The path provided does not match a defined resource type.")

    def template_of(self, method, path):
        for route in self.routes:
            if route.regex.match(path):
                return route.template
        return "(unknown path)"


# ---------------------------------------------------------------------------------------------
# Tokens and rate limit
# ---------------------------------------------------------------------------------------------

class TokenVerifier(standin_support.BearerTokenVerifier):
    """App Store Connect API bearer tokens (docs/formats.md §5): ES256 with the configured key, checked strictly."""

    def __init__(self, key, key_id, issuer_id, individual):
        super().__init__(key, key_id, "configured")
        self.issuer_id = issuer_id
        self.individual = individual

    def verify(self, authorization, method, path, query, now):
        """Returns nothing when the request may proceed; raises TokenError(reason, detail) otherwise."""
        expires, scope = self._cached(authorization, now)
        if expires <= now:
            raise TokenError("expired", f"the token expired at {expires} (now {int(now)})")
        if scope is not None and not self._scope_allows(scope, method, path, query):
            raise TokenError("scope", f"the token's scope does not include {method} {path}")

    def _verify_new(self, token, now):
        _, claims = self._signed_claims(token)
        if self.individual:
            if claims.get("sub") != "user":
                raise TokenError("sub", f"sub is {claims.get('sub')!r}, expected 'user' (individual key)")
            if "iss" in claims:
                raise TokenError("iss", "an individual key's token must not carry iss")
        elif claims.get("iss") != self.issuer_id:
            raise TokenError("iss", f"iss is {claims.get('iss')!r}, expected the issuer id")
        iat, exp = claims.get("iat"), claims.get("exp")
        for name, value in (("iat", iat), ("exp", exp)):
            require_seconds(name, value)
        check_lifetime(iat, exp, now, TOKEN_MAX_LIFETIME_SECONDS)
        scope = claims.get("scope")
        if scope is not None and (not isinstance(scope, list) or not scope
                                  or not all(isinstance(entry, str) for entry in scope)):
            raise TokenError("scope", "scope must be a non-empty array of strings")
        return exp, scope

    @staticmethod
    def _scope_allows(scope, method, path, query):
        for entry in scope:
            verb, _, target = entry.partition(" ")
            target_path, _, target_query = target.partition("?")
            if verb == method and target_path == path and (not target_query or target_query == query):
                return True
        return False


class RateWindow:
    """A rolling one-hour window of this key's requests: `X-Rate-Limit: user-hour-lim:L;user-hour-rem:R;`.

    `used` U earlier requests are placed 3600/max(L, U) seconds apart, the newest one now, so with U <= L
    they leave the window at L/3600 per second.
    """

    def __init__(self, limit, used, now):
        self.reset(limit, used, now)

    def reset(self, limit, used, now):
        self.limit = limit
        spacing = 3600.0 / max(limit, used, 1)
        self.times = deque(now - index * spacing for index in range(used - 1, -1, -1))

    def _prune(self, now):
        while self.times and self.times[0] <= now - 3600.0:
            self.times.popleft()

    def admit(self, now):
        """Counts one request; False (and not counted) when the window is full."""
        self._prune(now)
        if len(self.times) >= self.limit:
            return False
        self.times.append(now)
        return True

    def remaining(self, now):
        self._prune(now)
        return max(0, self.limit - len(self.times))

    def header(self, now):
        return f"user-hour-lim:{self.limit};user-hour-rem:{self.remaining(now)};"


# ---------------------------------------------------------------------------------------------
# The stand-in
# ---------------------------------------------------------------------------------------------

DEFAULT_CONFIG = {"rateLimit": {"limit": 3500, "used": 0}, "valuesNotReady": 1, "valuesNotReadyKind": "404",
                  "valuesHeader": False, "slowSeconds": 5.0, "today": None}


class StandIn(standin_support.StandInApp):
    """The application: routing, checks, rules and state. Everything it changes is guarded by `lock`."""

    CONTROL_INDENT = 1

    def __init__(self, schemas, paths, verifier, products, today=None, accept_opaque_price_points=False,
                 verbose=False, catalog=None):
        self.book = SchemaBook(schemas)
        self.routes = Routes(paths)
        self.verifier = verifier
        self.catalog = Catalog({"apps": [], "prices": {}} if catalog is None else catalog)
        # Each kind's ids, and the product ID of those given as {"id": "productId"} or in the catalog.
        self.products = {"subscriptions": [], "inAppPurchases": []}
        self.product_ids = {}
        for key in self.products:
            given = products.get(key, [])
            self.products[key] = list(given)
            if isinstance(given, dict):
                self.product_ids.update({id_: value for id_, value in given.items() if isinstance(value, str)})
        for key, ids in self.catalog.products().items():
            self.products[key] += [id_ for id_ in ids if id_ not in self.products[key]]
        for id_, attributes in self.catalog.product_attributes.items():
            if "productId" in attributes:
                self.product_ids.setdefault(id_, attributes["productId"])
        self.accept_opaque_price_points = accept_opaque_price_points
        self.verbose = verbose
        self.startup_today = today
        self.base_url = "http://127.0.0.1"
        self.lock = threading.Lock()
        self._written = threading.local()  # per handler thread: the log entry of the request it handles
        self.rng = random.SystemRandom()
        self.reset()

    # -- state ------------------------------------------------------------------------------

    def reset(self):
        """Back to the state right after start: no resources, counters, log or faults; CLI configuration."""
        with self.lock:
            self.config = json.loads(json.dumps(DEFAULT_CONFIG))
            self.config["today"] = self.startup_today
            self.resources = {}
            self.order = 0
            self.used_ids = set()
            self.all_codes = set()
            self.custom_codes = {}          # upper-cased custom code -> resource id
            self.children = {}              # (parent type, parent id, child type) -> ids in creation order
            self.offer_names = set()        # (offer type, product id, name)
            self.quarter_codes = {}         # ((year, quarter), "PRODUCTION" | "SANDBOX") -> codes created
            self._reset_shared({"creates": {}, "repeatedCreates": 0, "repeatedCreateLog": [], "nullAttributes": 0,
                                "schemaFailures": 0, "ruleFailures": {}, "rateLimited": 0,
                                "responseSchemaFailures": 0, "responseSchemaFailureLog": [], "responsesValidated": 0,
                                "valuesNotReadyAnswers": 0})
            self.posts = []
            self.window = RateWindow(self.config["rateLimit"]["limit"], self.config["rateLimit"]["used"], time.time())

    def today(self):
        configured = self.config.get("today")
        if configured:
            return datetime.date.fromisoformat(configured)
        return datetime.datetime.now(datetime.timezone.utc).date()

    def state(self):
        with self.lock:
            resources = sorted(self.resources.values(), key=lambda resource: resource.order)
            result = {"today": self.today().isoformat(), "config": self.config, "products": self.products,
                      "rateLimit": {"limit": self.window.limit, "remaining": self.window.remaining(time.time())},
                      "resources": [resource.public() for resource in resources],
                      "posts": list(self.posts), "faults": self.faults.public()}
            result.update(json.loads(json.dumps(self.counters)))
            return result

    def configure(self, update):
        standin_support.check_config_members(update, DEFAULT_CONFIG)
        checked = {}
        if "rateLimit" in update:
            rate = update["rateLimit"]
            if not isinstance(rate, dict) or set(rate) - {"limit", "used"}:
                raise ValueError("rateLimit must be {\"limit\": L, \"used\": U}")
            for name in rate:
                if not isinstance(rate[name], int) or isinstance(rate[name], bool) or rate[name] < 0:
                    raise ValueError(f"rateLimit.{name} must be a non-negative integer")
            checked["rateLimit"] = rate
        if "valuesNotReady" in update:
            if not isinstance(update["valuesNotReady"], int) or update["valuesNotReady"] < 0:
                raise ValueError("valuesNotReady must be a non-negative integer")
            checked["valuesNotReady"] = update["valuesNotReady"]
        if "valuesNotReadyKind" in update:
            if update["valuesNotReadyKind"] not in ("404", "empty"):
                raise ValueError("valuesNotReadyKind must be \"404\" or \"empty\"")
            checked["valuesNotReadyKind"] = update["valuesNotReadyKind"]
        if "valuesHeader" in update:
            if not isinstance(update["valuesHeader"], bool):
                raise ValueError("valuesHeader must be true or false")
            checked["valuesHeader"] = update["valuesHeader"]
        if "slowSeconds" in update:
            checked["slowSeconds"] = standin_support.slow_seconds(update["slowSeconds"])
        if "today" in update:
            day = update["today"]
            if day is not None:
                if not isinstance(day, str) or not DATE.match(day):
                    raise ValueError("today must be YYYY-MM-DD or null (the real UTC date)")
                datetime.date.fromisoformat(day)
            checked["today"] = day
        with self.lock:
            for name, value in checked.items():
                if name == "rateLimit":
                    limit = value.get("limit", self.window.limit)
                    self.config["rateLimit"]["limit"] = limit
                    if "used" in value:
                        self.config["rateLimit"]["used"] = value["used"]
                        self.window.reset(limit, value["used"], time.time())
                    else:
                        self.window.limit = limit
                else:
                    self.config[name] = value
            return json.loads(json.dumps(self.config))

    def _new_id(self):
        """An opaque 10-digit id, unique among everything the stand-in made (never derived from the body)."""
        while True:
            candidate = str(self.rng.randrange(6_000_000_000, 7_000_000_000))
            if candidate not in self.used_ids:
                self.used_ids.add(candidate)
                return candidate

    # -- HTTP entry point ---------------------------------------------------------------------

    def _handle_api(self, method, path, query, headers, body):
        """Answers one request outside `/_standin/`; only `/v1` and `/v2` requests are faulted."""
        now = time.time()
        self._written.entry = None  # the log entry of this request, once `_log_write` makes it
        api = path.startswith("/v1/") or path.startswith("/v2/")
        template = self.routes.template_of(method, path) if api else "(unknown path)"
        fault = self._pick_fault(method, path, template, faultable=api)

        def process():
            # After a slow-before or hold-before fault's wait the request is judged at the time it is processed.
            slept = fault is not None and fault[0] in ("slow-before", "hold-before")
            return self._process(method, path, query, headers, body, time.time() if slept else now)

        return self._answer_with_fault(fault, method, path, process)

    def _fault_reply(self, kind, retry_after):
        """A fault's answer in Apple's format: 429 (with `Retry-After: retryAfter` seconds for rate-limit), 500, 503."""
        if kind.startswith("rate-limit"):
            extra = {"Retry-After": str(retry_after)} if kind == "rate-limit" else {}
            error = ApiError.one(429, "RATE_LIMIT_EXCEEDED", "The request rate limit has been reached.",
                                 "We've received too many requests for this API. Please wait and try again "
                                 "or slow down your request rate.", headers=extra)
        elif kind == "server-error":
            error = ApiError.one(500, "UNEXPECTED_ERROR", "An unexpected error occurred.",
                                 "An unexpected error occurred on the server side. If this issue continues, "
                                 "contact us at https://developer.apple.com/contact/.")
        else:
            error = ApiError.one(503, "SERVICE_UNAVAILABLE", "The service is temporarily unavailable.",
                                 "The App Store Connect API is temporarily unavailable. Try again later.")
        return self._error_reply(error)

    def _log_unprocessed(self, method, path, note):
        """Only POSTs and PATCHes are logged."""
        if method in ("POST", "PATCH"):
            self._log_write(method, path, None, note, None)

    def _process(self, method, path, query, headers, body, now):
        try:
            if not (path.startswith("/v1/") or path.startswith("/v2/")):
                raise ApiError.one(404, "NOT_FOUND", "The specified resource does not exist",
                                   "The path provided does not match a defined resource type.")
            try:
                self.verifier.verify(headers.get("Authorization"), method, path, query, now)
            except TokenError as error:
                self._token_refused(method, path, error)
                raise ApiError.one(401, "NOT_AUTHORIZED", "Authentication credentials are missing or invalid.",
                                   NOT_AUTHORIZED_DETAIL + f" (stand-in: {error.detail})")
            with self.lock:
                self._token_accepted(headers.get("Authorization"))
                admitted = self.window.admit(now)
                if not admitted:
                    self._count("rateLimited")
            if not admitted:
                raise ApiError.one(429, "RATE_LIMIT_EXCEEDED", "The request rate limit has been reached.",
                                   "We've received too many requests for this API. Please wait and try again or "
                                   "slow down your request rate.")
            route, id_ = self.routes.match(method, path)
            params = self._query(route, query)
            if route.template in LOOKUPS:
                return self._lookup(route, path, params, id_)
            if route.template in PRODUCT_READS:
                return self._product(route, path, params, id_)
            if route.request_schema:
                document = self._request_document(route, headers, body)
                if method == "POST":
                    return self._create(route, path, document)
                return self._update(route, path, id_, document)
            if route.success_schema is None:
                return self._values(route, id_)
            if len(route.segments) == 3:
                return self._get_instance(route, path, query, id_, params)
            return self._list(route, path, params, id_)
        except ApiError as error:
            if method in ("POST", "PATCH"):
                self._log_write(method, path, error.status, f"refused {error.errors[0]['code']}", None)
            return self._error_reply(error)

    # -- request parsing ----------------------------------------------------------------------

    def _query(self, route, query):
        """The query parameters, checked against the operation's documented ones."""
        params = {}
        for name, value in parse_qsl(query, keep_blank_values=True, strict_parsing=False):
            if name in params:
                raise ApiError.one(400, "PARAMETER_ERROR.INVALID", "A parameter has an invalid value",
                                   f"The parameter '{name}' was given more than once", parameter=name)
            params[name] = value
        listing = "limit" in route.parameters
        served = SERVED_PARAMETERS.get(route.template, set())
        for name, value in params.items():
            if name == "cursor" and listing:
                continue
            documented = route.parameters.get(name)
            if documented is None:
                raise ApiError.one(400, "PARAMETER_ERROR.ILLEGAL", "A parameter was used illegally",
                                   f"The parameter '{name}' can not be used with this request", parameter=name)
            allowed = documented.get("schema", {}).get("items", {}).get("enum", [])
            if name == "limit" or (name.startswith("limit[") and name in served):
                maximum = documented.get("schema", {}).get("maximum", PAGE_MAX)
                if not re.fullmatch(r"[0-9]{1,5}", value) or not 1 <= int(value) <= maximum:
                    raise self._invalid_parameter(name, f"'{value}' is not a valid value for the parameter '{name}': "
                                                        f"expected an integer from 1 to {maximum}")
            elif name == "filter[territory]" and name in served:
                for territory in value.split(","):
                    if not TERRITORY.fullmatch(territory):
                        raise self._invalid_parameter(name, f"'{territory}' is not a valid territory id for '{name}'")
            elif name == "include" and name in served:
                for field in value.split(","):
                    if field not in allowed:
                        raise self._invalid_parameter(name, f"'{field}' is not a valid relationship name for 'include'")
                    if field not in SERVED_INCLUDES:
                        raise self._not_implemented(name, f"include={field}")
            elif name.startswith("fields["):
                for field in value.split(","):
                    if field not in allowed:
                        raise self._invalid_parameter(name, f"'{field}' is not a valid field name for '{name}'")
            else:
                raise self._not_implemented(name, f"'{name}'")
        return params

    @staticmethod
    def _invalid_parameter(name, detail):
        return ApiError.one(400, "PARAMETER_ERROR.INVALID", "A parameter has an invalid value", detail, parameter=name)

    @staticmethod
    def _not_implemented(name, what):
        return ApiError.one(501, "NOT_IMPLEMENTED_BY_STAND_IN", "The stand-in does not implement this parameter",
                            f"App Store Connect documents {what} for this request, but the local stand-in does not "
                            "implement it", parameter=name)

    def _request_document(self, route, headers, body):
        if media_type(headers) != "application/json":
            raise ApiError.one(415, "ENTITY_ERROR.UNSUPPORTED_MEDIA_TYPE", "The media type is not supported",
                               f"The request body must be sent with Content-Type application/json, not "
                               f"{headers.get('Content-Type')!r}")
        try:
            document = strict_json_loads(body)
        except (UnicodeDecodeError, ValueError) as error:
            raise ApiError.one(422, "ENTITY_UNPROCESSABLE", "The request entity is not valid JSON",
                               f"The request body could not be read as JSON: {error}", pointer="")
        nulls = list(self._null_attributes(document))
        if nulls:
            with self.lock:
                self._count("nullAttributes")
            raise ApiError.one(500, "UNEXPECTED_ERROR", "An unexpected error occurred.",
                               "An unexpected error occurred on the server side. (stand-in: App Store Connect is "
                               f"reported to answer 500 to an attribute sent as null: {', '.join(nulls)})")
        errors = self.book.request_errors(route.request_schema, document)
        if errors:
            with self.lock:
                self._count("schemaFailures")
            raise ApiError(422, errors)
        return document

    @staticmethod
    def _null_attributes(document):
        """JSON pointers of every null inside `attributes` of data and of included resources."""
        def walk(node, parts):
            if node is None:
                yield json_pointer(parts)
            elif isinstance(node, dict):
                for key, value in node.items():
                    yield from walk(value, parts + [key])
            elif isinstance(node, list):
                for index, value in enumerate(node):
                    yield from walk(value, parts + [index])

        if not isinstance(document, dict):
            return
        data = document.get("data")
        if isinstance(data, dict) and "attributes" in data:
            yield from walk(data["attributes"], ["data", "attributes"])
        included = document.get("included")
        if isinstance(included, list):
            for index, item in enumerate(included):
                if isinstance(item, dict) and "attributes" in item:
                    yield from walk(item["attributes"], ["included", index, "attributes"])

    # -- creation -------------------------------------------------------------------------------

    def _create(self, route, path, document):
        kind = KINDS[route.segments[1]]
        data = document["data"]
        attributes = data["attributes"]
        if kind.role == "offer":
            resource, repeated = self._create_offer(kind, data, document.get("included", []))
        elif kind.role == "subscriptionOffer":
            resource, repeated = self._create_subscription_offer(kind, data, document.get("included", [])), False
        elif kind.role == "introductory":
            resource, repeated = self._create_introductory_offer(kind, data, document.get("included", [])), False
        else:
            resource, repeated = self._create_child(kind, data, attributes)
        body = {"data": self._serialize(resource), "links": {"self": self.base_url + path}}
        self._log_write("POST", path, 201, "created" + (" (repeated)" if repeated else ""), resource)
        return self._json_reply(201, body, route.success_schema,
                                {"Location": f"{self.base_url}/{kind.version}/{kind.type}/{resource.id}"})

    def _create_offer(self, kind, data, included):
        attributes = data["attributes"]
        relationships = data["relationships"]
        product_id = relationships[kind.product_relationship]["data"]["id"]
        errors = []
        if product_id not in self.products[kind.product_type]:
            other = "inAppPurchases" if kind.product_type == "subscriptions" else "subscriptions"
            hint = f" (it is one of the app's {other})" if product_id in self.products[other] else ""
            errors.append(relationship_invalid(
                f"There is no resource of type '{kind.product_type}' with id '{product_id}' in this app{hint}",
                f"/data/relationships/{kind.product_relationship}/data/id"))
        mode = attributes.get("offerMode")
        if kind.family == "subscription" and mode in ("FREE_TRIAL", "PAY_UP_FRONT") \
                and attributes.get("numberOfPeriods") != 1:
            errors.append(attribute_invalid(
                f"numberOfPeriods must be 1 for offerMode {mode}, not {attributes.get('numberOfPeriods')}",
                "/data/attributes/numberOfPeriods"))
        elif kind.family == "subscription" and attributes.get("numberOfPeriods", 0) < 1:
            errors.append(attribute_invalid("numberOfPeriods must be at least 1", "/data/attributes/numberOfPeriods"))
        if not attributes.get("name", "").strip():
            errors.append(attribute_invalid("name must not be empty", "/data/attributes/name"))
        if not attributes.get("customerEligibilities"):
            errors.append(attribute_invalid("customerEligibilities must list at least one eligibility",
                                            "/data/attributes/customerEligibilities"))
        elif len(set(attributes["customerEligibilities"])) != len(attributes["customerEligibilities"]):
            errors.append(attribute_invalid("customerEligibilities lists an eligibility twice",
                                            "/data/attributes/customerEligibilities"))
        prices = self._price_entries(kind, mode, product_id, relationships["prices"]["data"], included, errors)
        if errors:
            self._rule_failure(errors)
        with self.lock:
            active = sum(1 for collection, offer_type in PRODUCT_COLLECTIONS.items()
                         for product in self.products[collection]
                         for offer_id in self.children.get((collection, product, offer_type), [])
                         if self.resources[offer_id].attributes["active"])
            if active >= ACTIVE_OFFERS_PER_APP:
                self._rule_failure([state_error(
                    f"The app already has {active} active offers; at most {ACTIVE_OFFERS_PER_APP} may be active "
                    "at a time (deactivate one first)", "/data")], locked=True)
            repeated = (kind.type, product_id, attributes["name"]) in self.offer_names
            self.offer_names.add((kind.type, product_id, attributes["name"]))
            shown = {key: attributes[key] for key in attributes}
            if kind.family == "subscription":
                shown.setdefault("autoRenewEnabled", True)
                shown.update(totalNumberOfCodes=0, productionCodeCount=0, sandboxCodeCount=0, active=True)
            else:
                shown.update(productionCodeCount=0, sandboxCodeCount=0, active=True)
            offer = self._store(kind, shown, (kind.product_type, product_id), (kind.product_type, product_id))
            price_kind = KINDS[kind.price_type]
            for territory, price_point in prices:
                price = self._store(price_kind, {}, (kind.type, offer.id), offer.product)
                price.relationships = {"territory": territory, "pricePoint": price_point}
                offer.prices.append(price.id)
            if repeated:
                self._count("repeatedCreates")
                self.counters["repeatedCreateLog"].append(
                    {"type": kind.type, "product": product_id, "name": attributes["name"], "id": offer.id})
            return offer, repeated

    def _price_entries(self, kind, mode, product_id, references, included, errors):
        """[(territory, price point or None)] of an offer's inline prices; appends 409 entries to `errors`."""
        referenced = [reference["id"] for reference in references]
        for position, reference in enumerate(references):
            if referenced.count(reference["id"]) > 1:
                errors.append(conflict("ENTITY_ERROR.RELATIONSHIP.INVALID",
                                       "The provided entity includes a relationship with an invalid value",
                                       f"The price id '{reference['id']}' is listed more than once",
                                       f"/data/relationships/prices/data/{position}/id"))
        if not references:
            errors.append(relationship_invalid("An offer needs at least one price (one per territory)",
                                               "/data/relationships/prices/data"))
        result, territories = [], {}
        included_ids = [item.get("id") for item in included]
        for position, reference in enumerate(references):
            if reference["id"] not in included_ids:
                errors.append(conflict("ENTITY_ERROR.INCLUDED.REQUIRED",
                                       "The provided entity is missing an included resource",
                                       f"The price '{reference['id']}' is not among the included resources",
                                       f"/data/relationships/prices/data/{position}/id"))
        for index, item in enumerate(included):
            item_id = item.get("id")
            if item_id is None or not LOCAL_ID.match(item_id):
                errors.append(conflict("ENTITY_ERROR.INCLUDED.INVALID_ID", "The provided entity id is invalid",
                                       f"The provided included entity id '{item_id}' has invalid format "
                                       "(expected a local id like '${price-1}')", f"/included/{index}/id"))
                continue
            if included_ids.count(item_id) > 1:
                errors.append(conflict("ENTITY_ERROR.INCLUDED.INVALID_ID", "The provided entity id is invalid",
                                       f"The included id '{item_id}' is used more than once", f"/included/{index}/id"))
            if item_id not in referenced:
                errors.append(conflict("ENTITY_ERROR.INCLUDED.INVALID",
                                       "The provided entity includes a resource that is not referenced",
                                       f"The included resource '{item_id}' is not referenced by data.relationships.prices",
                                       f"/included/{index}"))
            relationships = item.get("relationships", {})
            territory_data = relationships.get("territory", {}).get("data")
            if territory_data is None:
                errors.append(conflict("ENTITY_ERROR.RELATIONSHIP.REQUIRED",
                                       "The provided entity is missing a required relationship",
                                       "Each price needs its territory", f"/included/{index}/relationships/territory"))
                continue
            territory = territory_data["id"]
            if not TERRITORY.match(territory):
                errors.append(relationship_invalid(
                    f"'{territory}' is not a territory (a three-letter code such as USA)",
                    f"/included/{index}/relationships/territory/data/id"))
                continue
            if territory in territories:
                errors.append(relationship_invalid(
                    f"The territory {territory} already has a price in this offer (included[{territories[territory]}])",
                    f"/included/{index}/relationships/territory/data/id"))
            territories[territory] = index
            point_relationship = relationships.get(kind.price_point_relationship)
            point = point_relationship.get("data") if isinstance(point_relationship, dict) else None
            pointer = f"/included/{index}/relationships/{kind.price_point_relationship}"
            if kind.family == "subscription" and mode == "FREE_TRIAL" and point_relationship is not None:
                errors.append(relationship_invalid("A FREE_TRIAL offer's prices must not have a price point", pointer))
            elif kind.family == "subscription" and mode != "FREE_TRIAL" and point is None:
                errors.append(conflict("ENTITY_ERROR.RELATIONSHIP.REQUIRED",
                                       "The provided entity is missing a required relationship",
                                       f"A {mode} offer needs a price point in every territory ({territory})", pointer))
            elif point is not None:
                problem = self._price_point_problem(point["id"], product_id, territory)
                if problem:
                    errors.append(relationship_invalid(problem, pointer + "/data/id"))
            if kind.family == "inAppPurchase" and point_relationship is not None and point is None:
                errors.append(relationship_invalid("pricePoint needs data (omit it for a free price)", pointer))
            result.append((territory, point["id"] if point else None))
        return result

    def _price_point_problem(self, point_id, product_id, territory):
        """Why a price point id cannot be this product's price in this territory, or None.

        Apple's price point ids are base64url JSON {"s": product id, "t": territory, "p": price}.
        """
        try:
            decoded = json.loads(base64.urlsafe_b64decode(point_id + "=" * (-len(point_id) % 4)))
            if not isinstance(decoded, dict) or "s" not in decoded or "t" not in decoded:
                raise ValueError
        except ValueError:
            if self.accept_opaque_price_points:
                return None
            return (f"There is no price point with id '{point_id}' (App Store Connect's price point ids are base64url "
                    "JSON naming the product and territory)")
        if decoded["s"] != product_id:
            return f"The price point '{point_id}' belongs to product {decoded['s']}, not {product_id}"
        if decoded["t"] != territory:
            return f"The price point '{point_id}' is for territory {decoded['t']}, not {territory}"
        return None

    # -- promotional, introductory and win-back offers -------------------------------------------
    # The rules and their sources: README.md, "The rules"; the numbers: the constants at the top.

    def _create_subscription_offer(self, kind, data, included):
        """A promotional or win-back offer and its inline prices. Creating the same offer again (same
        subscription and identifier) is refused, as the identifier must be unique, and counted in
        `repeatedCreates`."""
        attributes, relationships = data["attributes"], data["relationships"]
        subscription = relationships["subscription"]["data"]["id"]
        errors = self._subscription_errors(subscription) + self._terms_errors(kind, attributes, subscription)
        if kind.type == "winBackOffers":
            errors += self._win_back_errors(attributes)
        else:
            for member in ("name", "offerCode"):
                if not attributes[member].strip():
                    errors.append(attribute_invalid(f"{member} must not be empty", f"/data/attributes/{member}"))
        prices = self._price_entries(kind, attributes["offerMode"], subscription, relationships["prices"]["data"],
                                     included, errors)
        if errors:
            self._rule_failure(errors)
        with self.lock:
            self._check_unique(kind, subscription, attributes)
            siblings = self._offers_of(kind.type, subscription)
            if kind.type == "winBackOffers":
                self._check_win_back_limits(siblings, attributes, prices)
            elif len(siblings) >= PROMOTIONAL_OFFERS_PER_SUBSCRIPTION:
                self._rule_failure([state_error(
                    f"Subscription {subscription} already has {len(siblings)} promotional offers; at most "
                    f"{PROMOTIONAL_OFFERS_PER_SUBSCRIPTION} may be active at a time", "/data")], locked=True)
            subscription_ref = ("subscriptions", subscription)
            offer = self._store(kind, dict(attributes), subscription_ref, subscription_ref)
            for territory, point in prices:
                price = self._store(KINDS[kind.price_type], {}, (kind.type, offer.id), subscription_ref)
                price.relationships = {"territory": territory, "pricePoint": point}
                offer.prices.append(price.id)
            return offer

    def _create_introductory_offer(self, kind, data, included):
        """An introductory offer of one territory. Creating it again (same subscription, territory and
        startDate) is refused, as its dates overlap the first one's, and counted in `repeatedCreates`."""
        if included:
            raise ApiError.one(501, "NOT_IMPLEMENTED_BY_STAND_IN", "The stand-in does not implement this member",
                               "App Store Connect documents inline price points (included) for this request, but "
                               "the local stand-in does not implement them: name an existing price point",
                               pointer="/included")
        attributes, relationships = data["attributes"], data["relationships"]
        subscription = relationships["subscription"]["data"]["id"]
        errors = self._subscription_errors(subscription) + self._terms_errors(kind, attributes, subscription)
        territory = self._introductory_territory(relationships, errors)
        point = self._introductory_price_point(attributes["offerMode"], subscription, territory, relationships,
                                               errors)
        errors += self._introductory_date_errors(attributes)
        if errors:
            self._rule_failure(errors)
        with self.lock:
            self._check_introductory_overlap(kind, subscription, territory, attributes)
            subscription_ref = ("subscriptions", subscription)
            offer = self._store(kind, dict(attributes), subscription_ref, subscription_ref)
            offer.relationships = {"territory": territory, "pricePoint": point}
            return offer

    def _subscription_errors(self, subscription):
        """409 entries when `subscription` is not one of the app's subscriptions (the POSTs document no 404)."""
        if subscription in self.products["subscriptions"]:
            return []
        hint = " (it is one of the app's inAppPurchases)" if subscription in self.products["inAppPurchases"] else ""
        return [relationship_invalid(f"There is no resource of type 'subscriptions' with id '{subscription}' in "
                                     f"this app{hint}", "/data/relationships/subscription/data/id")]

    def _terms_errors(self, kind, attributes, subscription):
        """409 entries for a number of periods or a duration the offer's mode does not allow: periods as for offer
        codes (1 for FREE_TRIAL and PAY_UP_FRONT); durations as README.md reports them."""
        mode, duration, periods = attributes["offerMode"], attributes["duration"], attributes[kind.periods]
        periods_pointer, duration_pointer = f"/data/attributes/{kind.periods}", "/data/attributes/duration"
        errors = []
        if mode in ("FREE_TRIAL", "PAY_UP_FRONT") and periods != 1:
            errors.append(attribute_invalid(f"{kind.periods} must be 1 for offerMode {mode}, not {periods}",
                                            periods_pointer))
        if mode == "PAY_UP_FRONT" and duration not in PAY_UP_FRONT_DURATIONS:
            errors.append(attribute_invalid(f"A PAY_UP_FRONT offer lasts one to twelve months "
                                            f"({', '.join(sorted(PAY_UP_FRONT_DURATIONS))}), not {duration}",
                                            duration_pointer))
        if mode != "PAY_AS_YOU_GO":
            return errors
        maximum = PAY_AS_YOU_GO_MAXIMUM_PERIODS.get(duration)
        period = self.catalog.period_of.get(subscription)  # known only for the catalog's subscriptions
        if maximum is None:
            errors.append(attribute_invalid(f"{duration} is not a subscription period; a PAY_AS_YOU_GO offer charges "
                                            "for each of the subscription's own periods", duration_pointer))
        elif period and period != duration:
            errors.append(attribute_invalid(f"{duration} is not the period of subscription {subscription} "
                                            f"({period}); a PAY_AS_YOU_GO offer charges for each of its periods",
                                            duration_pointer))
        if not 1 <= periods <= (maximum or 12):
            errors.append(attribute_invalid(f"{kind.periods} must be 1 to {maximum or 12} for a PAY_AS_YOU_GO offer "
                                            f"of {duration} periods (a year at most), not {periods}", periods_pointer))
        return errors

    def _win_back_errors(self, attributes):
        """409 entries for what WinBackOfferCreateRequest's attributes document (names, eligibility, dates)."""
        errors = []

        def invalid(detail, member):
            errors.append(attribute_invalid(detail, "/data/attributes/" + member))

        if not WIN_BACK_REFERENCE_NAME.fullmatch(attributes["referenceName"]):
            invalid("referenceName must be 1 to 65 letters, digits, spaces, periods and underscores", "referenceName")
        if not WIN_BACK_OFFER_ID.fullmatch(attributes["offerId"]):
            invalid("offerId must be 1 to 100 letters, digits, periods and underscores", "offerId")
        paid = attributes["customerEligibilityPaidSubscriptionDurationInMonths"]
        if paid not in WIN_BACK_PAID_MONTHS:
            invalid(f"{paid} is not a paid subscription duration: 1 to 24 months, 36, 48 or 60",
                    "customerEligibilityPaidSubscriptionDurationInMonths")
        since, member = (attributes["customerEligibilityTimeSinceLastSubscribedInMonths"],
                         "customerEligibilityTimeSinceLastSubscribedInMonths")
        for end in ("minimum", "maximum"):
            if end not in since:
                invalid(f"{member} needs its {end}", f"{member}/{end}")
            elif since[end] not in WIN_BACK_SINCE_MONTHS:
                invalid(f"{since[end]} months since the last subscription is outside 1 to 24", f"{member}/{end}")
        if "minimum" in since and "maximum" in since and since["minimum"] > since["maximum"]:
            invalid(f"the minimum {since['minimum']} is above the maximum {since['maximum']}", member)
        wait = attributes.get("customerEligibilityWaitBetweenOffersInMonths")
        if wait is not None and wait not in WIN_BACK_WAIT_MONTHS:
            invalid(f"{wait} months between offers is outside 2 to 24", "customerEligibilityWaitBetweenOffersInMonths")
        start, end = self._span(attributes)
        earliest = self.today() + datetime.timedelta(days=1)
        if start < earliest:
            invalid(f"startDate {start} is before {earliest}: the first available date is today + 1 day",
                    "startDate")
        if end is not None and end < start + datetime.timedelta(days=WIN_BACK_MINIMUM_DAYS):
            invalid(f"endDate {end} is less than {WIN_BACK_MINIMUM_DAYS} days after startDate {start}: a win-back "
                    f"offer runs for {WIN_BACK_MINIMUM_DAYS} days at least", "endDate")
        return errors

    def _introductory_territory(self, relationships, errors):
        """The one territory of an introductory offer, or None with an entry in `errors`."""
        data = (relationships.get("territory") or {}).get("data")
        if data is None:
            errors.append(conflict("ENTITY_ERROR.RELATIONSHIP.REQUIRED",
                                   "The provided entity is missing a required relationship",
                                   "An introductory offer is for one territory: name it",
                                   "/data/relationships/territory"))
            return None
        if not TERRITORY.fullmatch(data["id"]):
            errors.append(relationship_invalid(f"'{data['id']}' is not a territory (a three-letter code such as USA)",
                                               "/data/relationships/territory/data/id"))
            return None
        return data["id"]

    def _introductory_price_point(self, mode, subscription, territory, relationships, errors):
        """The price point of an introductory offer (None for a FREE_TRIAL), as for an offer code's prices."""
        relationship = relationships.get("subscriptionPricePoint")
        point = relationship.get("data") if relationship is not None else None
        pointer = "/data/relationships/subscriptionPricePoint"
        if mode == "FREE_TRIAL":
            if relationship is not None:
                errors.append(relationship_invalid("A FREE_TRIAL offer has no price point", pointer))
            return None
        if point is None:
            errors.append(conflict("ENTITY_ERROR.RELATIONSHIP.REQUIRED",
                                   "The provided entity is missing a required relationship",
                                   f"A {mode} introductory offer needs a price point", pointer))
            return None
        problem = territory and self._price_point_problem(point["id"], subscription, territory)
        if problem:
            errors.append(relationship_invalid(problem, pointer + "/data/id"))
        return point["id"]

    def _introductory_date_errors(self, attributes):
        """startDate not before today; endDate after startDate (after today without one)."""
        today, errors = self.today(), []
        start, end = self._span(attributes, today)
        if start < today:
            errors.append(attribute_invalid(f"startDate {start} is in the past (today is {today})",
                                            "/data/attributes/startDate"))
        if end is not None and end <= max(start, today):
            errors.append(attribute_invalid(f"endDate {end} is not after {max(start, today)}",
                                            "/data/attributes/endDate"))
        return errors

    def _check_introductory_overlap(self, kind, subscription, territory, attributes):
        """Refuses an introductory offer whose dates overlap another's of the subscription in the territory, or a
        third one not yet ended there (one current and one future); call under the lock."""
        today = self.today()
        span = self._span(attributes, today)
        running = [offer for offer in self._offers_of(kind.type, subscription)
                   if offer.relationships["territory"] == territory and not self._ended(offer, today)]
        clash = next((offer for offer in running if self._overlap(self._stored_span(offer), span)), None)
        pointer = "/data/relationships/territory/data/id"
        if clash is not None:
            if clash.attributes.get("startDate") == attributes.get("startDate"):
                self._count("repeatedCreates")
                self.counters["repeatedCreateLog"].append(
                    {"type": kind.type, "product": subscription, "territory": territory,
                     "startDate": attributes.get("startDate"), "id": clash.id})
            start, end = self._stored_span(clash)
            self._rule_failure([state_error(
                f"{territory} already has an introductory offer of subscription {subscription} ({clash.id}, from "
                f"{start} to {end or 'no end'}) at the same time; a territory has one at a time", pointer)],
                locked=True)
        if len(running) >= INTRODUCTORY_OFFERS_PER_TERRITORY:
            self._rule_failure([state_error(
                f"{territory} already has a current and a future introductory offer of subscription {subscription} "
                f"({', '.join(offer.id for offer in running)})", pointer)], locked=True)

    def _check_unique(self, kind, subscription, attributes):
        """Refuses an offer identifier another offer of the subscription's group has (compared ignoring case), and
        a win-back reference name another offer of the group has; the same offer again (kind, subscription and
        identifier) is counted in `repeatedCreates`. Call under the lock."""
        identifier, errors = attributes[kind.identifier], []
        # A win-back offerId and referenceName must not be used by a promotional offer, an offer code or another
        # win-back offer (Create a Win-Back Offer), "in the same subscription group" (Set up win-back offers); an
        # offer code's only name in the API is `name`, an introductory offer has none. A promotional offer's
        # identifier is held to the same rule among promotional and win-back offers (a guess).
        kinds = ("winBackOffers", "subscriptionPromotionalOffers") + (
            ("subscriptionOfferCodes",) if kind.type == "winBackOffers" else ())
        others = [resource for resource in self._group_offers(subscription) if resource.kind.type in kinds]

        def identifier_of(other):
            return other.attributes[getattr(other.kind, "identifier", "name")]

        def repeats(other):
            return other.kind is kind and other.product[1] == subscription and identifier_of(other) == identifier

        same = [other for other in others if identifier_of(other).casefold() == identifier.casefold()]
        if same:
            other = next((other for other in same if repeats(other)), same[0])
            if repeats(other):
                self._count("repeatedCreates")
                self.counters["repeatedCreateLog"].append(
                    {"type": kind.type, "product": subscription, kind.identifier: identifier, "id": other.id})
            errors.append(attribute_invalid(
                f"The offer identifier '{identifier}' is already used by {other.kind.type} {other.id} of subscription "
                f"{other.product[1]} in the same subscription group", f"/data/attributes/{kind.identifier}"))
        name = attributes[kind.name_attribute]
        if kind.type == "winBackOffers":
            used = next((other for other in others if other.attributes[getattr(other.kind, "name_attribute", "name")]
                         == name), None)
            if used is not None:
                errors.append(attribute_invalid(f"The reference name '{name}' is already used by {used.kind.type} "
                                                f"{used.id} in the same subscription group",
                                                "/data/attributes/referenceName"))
        if errors:
            self._rule_failure(errors, locked=True)

    def _check_win_back_limits(self, siblings, attributes, prices):
        """Apple's limits: win-back offers per subscription, and running at once per territory; under the lock."""
        if len(siblings) >= WIN_BACK_OFFERS_PER_SUBSCRIPTION:
            self._rule_failure([state_error(
                f"The subscription already has {len(siblings)} win-back offers; at most "
                f"{WIN_BACK_OFFERS_PER_SUBSCRIPTION}", "/data")], locked=True)
        span, errors = self._span(attributes), []
        for index, (territory, _) in enumerate(prices):
            spans = [self._span(offer.attributes) for offer in siblings if territory in self._territories(offer)]
            if self._most_at_once(spans, span) >= WIN_BACK_OFFERS_PER_TERRITORY_AT_A_TIME:
                errors.append(state_error(
                    f"{WIN_BACK_OFFERS_PER_TERRITORY_AT_A_TIME} win-back offers of the subscription already run in "
                    f"{territory} at a time during this offer's dates; at most "
                    f"{WIN_BACK_OFFERS_PER_TERRITORY_AT_A_TIME} per storefront at a time",
                    f"/included/{index}/relationships/territory/data/id"))
        if errors:
            self._rule_failure(errors, locked=True)

    def _offers_of(self, type_, subscription):
        """The subscription's offers of `type_`, in creation order; call under the lock."""
        return [self.resources[id_] for id_ in self.children.get(("subscriptions", subscription, type_), [])]

    def _group_offers(self, subscription):
        """Every offer of the subscriptions in `subscription`'s group (the catalog's groups; a subscription the
        catalog does not know is a group of its own); call under the lock."""
        group = self.catalog.group_of.get(subscription)
        members = [id_ for id_ in self.products["subscriptions"]
                   if id_ == subscription or (group is not None and self.catalog.group_of.get(id_) == group)]
        return [offer for member in members
                for type_ in ("subscriptionPromotionalOffers", "winBackOffers", "subscriptionOfferCodes")
                for offer in self._offers_of(type_, member)]

    def _territories(self, resource):
        """The territories an offer or price is for; call under the lock."""
        if resource.kind.role in ("offer", "subscriptionOffer"):
            return {self.resources[id_].relationships["territory"] for id_ in resource.prices}
        return {resource.relationships["territory"]}

    @staticmethod
    def _span(attributes, default_start=None):
        """(startDate, endDate or None for no end) as dates; `default_start` when there is no startDate."""
        start, end = attributes.get("startDate"), attributes.get("endDate")
        return (datetime.date.fromisoformat(start) if start else default_start,
                datetime.date.fromisoformat(end) if end else None)

    def _stored_span(self, offer):
        """An introductory offer's days: from its startDate, or the day it was created."""
        return self._span(offer.attributes, datetime.date.fromisoformat(offer.created_on))

    def _ended(self, offer, today):
        end = self._stored_span(offer)[1]
        return end is not None and end < today

    @staticmethod
    def _overlap(first, second):
        """Whether two (start, end or None) spans of days share a day."""
        return (first[1] is None or first[1] >= second[0]) and (second[1] is None or second[1] >= first[0])

    @classmethod
    def _most_at_once(cls, spans, span):
        """The most of `spans` running on one day of `span` (counts change only where one starts)."""
        days = [span[0]] + [start for start, _ in spans if cls._overlap((start, start), span) and start > span[0]]
        return max(sum(1 for other in spans if cls._overlap(other, (day, day))) for day in days)

    def _create_child(self, kind, data, attributes):
        offer_id = data["relationships"]["offerCode"]["data"]["id"]
        today = self.today()
        errors = []
        count = attributes["numberOfCodes"]
        if count < 1:
            errors.append(attribute_invalid(f"numberOfCodes must be at least 1, not {count}",
                                            "/data/attributes/numberOfCodes"))
        expiration = attributes.get("expirationDate")
        if expiration is not None:
            expires = datetime.date.fromisoformat(expiration)
            if expires <= today:
                errors.append(attribute_invalid(f"expirationDate {expiration} must be after today ({today})",
                                                "/data/attributes/expirationDate"))
            latest = add_months(today, ONE_TIME_USE_EXPIRY_MONTHS)
            if kind.role == "oneTimeUse" and expires > latest:
                errors.append(attribute_invalid(
                    f"expirationDate {expiration} is more than {ONE_TIME_USE_EXPIRY_MONTHS} months after today "
                    f"({today}); the latest is {latest}", "/data/attributes/expirationDate"))
        if kind.role == "custom":
            code = attributes["customCode"]
            if not CUSTOM_CODE.match(code) or len(code) > CUSTOM_CODE_MAX_LENGTH:
                errors.append(attribute_invalid(
                    f"customCode must be 1 to {CUSTOM_CODE_MAX_LENGTH} letters and digits, not {code!r}",
                    "/data/attributes/customCode"))
        if errors:
            self._rule_failure(errors)
        with self.lock:
            offer = self.resources.get(offer_id)
            if offer is None or offer.kind.type != kind.offer_type:
                what = f" (it is a {offer.kind.type} resource)" if offer is not None else ""
                self._rule_failure([relationship_invalid(
                    f"There is no resource of type '{kind.offer_type}' with id '{offer_id}'{what}",
                    "/data/relationships/offerCode/data/id")], locked=True)
            if not offer.attributes["active"]:
                self._rule_failure([state_error(f"The offer {offer_id} is not active; it takes no new codes",
                                                "/data/relationships/offerCode/data/id")], locked=True)
            environment = attributes.get("environment", "PRODUCTION")
            quarter = quarter_of(today)
            sandbox = self.quarter_codes.get((quarter, "SANDBOX"), 0)
            production = self.quarter_codes.get((quarter, "PRODUCTION"), 0)
            if kind.role == "oneTimeUse" and environment == "SANDBOX":
                if sandbox + count > SANDBOX_CODES_PER_QUARTER:
                    self._rule_failure([attribute_invalid(
                        f"{count} sandbox codes would make {sandbox + count} this quarter; the app may create at most "
                        f"{SANDBOX_CODES_PER_QUARTER:,} sandbox codes per quarter ({sandbox:,} so far)",
                        "/data/attributes/numberOfCodes")], locked=True)
            elif production + count > PRODUCTION_CODES_PER_QUARTER:
                self._rule_failure([attribute_invalid(
                    f"{count} codes would make {production + count:,} this quarter; the app may create at most "
                    f"{PRODUCTION_CODES_PER_QUARTER:,} codes per quarter ({production:,} so far)",
                    "/data/attributes/numberOfCodes")], locked=True)
            if kind.role == "custom":
                key = attributes["customCode"].upper()
                if key in self.custom_codes:
                    self._count("repeatedCreates")
                    self.counters["repeatedCreateLog"].append(
                        {"type": kind.type, "customCode": attributes["customCode"], "id": self.custom_codes[key]})
                    self._rule_failure([attribute_invalid(
                        f"The custom code '{attributes['customCode']}' is already used in this app",
                        "/data/attributes/customCode")], locked=True)
            shown = {"numberOfCodes": count, "createdDate": created_date(today)}
            if expiration is not None:
                shown["expirationDate"] = expiration
            shown["active"] = True
            if kind.role == "oneTimeUse":
                shown["environment"] = environment
            else:
                shown = {"customCode": attributes["customCode"], **shown}
            resource = self._store(kind, shown, (offer.kind.type, offer.id), offer.product)
            pool = (quarter, "SANDBOX" if kind.role == "oneTimeUse" and environment == "SANDBOX" else "PRODUCTION")
            self.quarter_codes[pool] = self.quarter_codes.get(pool, 0) + count
            if kind.role == "oneTimeUse":
                resource.values_seed = secrets.randbits(128)
                counted = "sandboxCodeCount" if environment == "SANDBOX" else "productionCodeCount"
            else:
                self.custom_codes[attributes["customCode"].upper()] = resource.id
                counted = "productionCodeCount"
            offer.attributes[counted] += count
            if "totalNumberOfCodes" in offer.attributes:
                offer.attributes["totalNumberOfCodes"] += count
            return resource, False

    def _rule_failure(self, errors, locked=False):
        """Raises the 409 for documented-rule violations, counting each rule by its pointer."""
        def count():
            for entry in errors:
                self._count("ruleFailures", f"{entry['code']} {entry['source']['pointer']}")
        if locked:
            count()
        else:
            with self.lock:
                count()
        raise ApiError(409, errors)

    def _store(self, kind, attributes, parent, product):
        """Stores a new resource; call under the lock."""
        self.order += 1
        resource = Resource(kind, self._new_id(), self.order, attributes, parent, product, self.today().isoformat())
        self.resources[resource.id] = resource
        self.children.setdefault((parent[0], parent[1], kind.type), []).append(resource.id)
        self._count("creates", kind.type)
        return resource

    # -- reading and updating ----------------------------------------------------------------

    def _find(self, type_, id_):
        with self.lock:
            resource = self.resources.get(id_)
        if resource is None or resource.kind.type != type_:
            raise not_found(type_, id_)
        return resource

    def _get_instance(self, route, path, query, id_, params):
        resource = self._find(route.segments[1], id_)
        with self.lock:
            included = []
            body = {"data": self._serialize(resource, params, included),
                    "links": {"self": self._self_link(path, query)}}
            included += self._included([resource], params)
        if included:
            body["included"] = included
        return self._json_reply(200, body, route.success_schema)

    def _update(self, route, path, id_, document):
        kind = KINDS[route.segments[1]]
        resource = self._find(kind.type, id_)
        data = document["data"]
        if data["id"] != id_:
            raise ApiError(409, [conflict("ENTITY_ERROR.INVALID_ID", "The provided entity id is invalid",
                                          f"The id '{data['id']}' in the body is not the id '{id_}' in the path",
                                          "/data/id")])
        wanted = data.get("attributes", {}).get("active")
        with self.lock:
            if wanted is True and not resource.attributes["active"]:
                self._rule_failure([state_error(f"The {kind.type} resource {id_} was deactivated; it cannot be "
                                                "activated again", "/data/attributes/active")], locked=True)
            if wanted is False:
                resource.attributes["active"] = False
            body = {"data": self._serialize(resource), "links": {"self": self.base_url + path}}
        self._log_write("PATCH", path, 200, "updated", resource)
        return self._json_reply(200, body, route.success_schema)

    def _list(self, route, path, params, id_):
        collection, relation = route.segments[1], route.segments[-1]
        linkage = route.segments[-2] == "relationships"
        child_type = RELATED[(collection, relation)]
        if collection in PRODUCT_COLLECTIONS:
            if id_ not in self.products[collection]:
                raise not_found(collection, id_)
            parent = (collection, id_)
        else:
            parent = (self._find(collection, id_).kind.type, id_)
        limit, offset = self._window(params)
        with self.lock:
            members = [self.resources[i] for i in self.children.get((parent[0], parent[1], child_type), [])]
            if "filter[territory]" in params:  # an offer is listed when it has a price in one of the territories
                wanted = set(params["filter[territory]"].split(","))
                members = [r for r in members if self._territories(r) & wanted]
            page, included = members[offset:offset + limit], []
            data = [{"type": r.kind.type, "id": r.id} if linkage else self._serialize(r, params, included)
                    for r in page]
            included += self._included(page, params)
        return self._paged_reply(route, path, params, data, len(members), limit, offset, included)

    def _window(self, params):
        """(limit, offset) of a list request: `limit` (default 20) and the offset its `cursor` names."""
        limit = int(params.get("limit", PAGE_DEFAULT))
        return limit, self._decode_cursor(params["cursor"]) if "cursor" in params else 0

    def _paged_reply(self, route, path, params, data, total, limit, offset, included=None):
        """A list answer as Apple pages: `meta.paging` {total, limit, nextCursor}, `links.self`, and `links.next`
        (an absolute URL with `cursor` and `limit`) while more remain."""
        paging = {"total": total, "limit": limit}
        links = {"self": self._self_link(path, urlencode(list(params.items())))}
        if offset + limit < total:
            cursor = self._encode_cursor(offset + limit)
            paging["nextCursor"] = cursor
            following = dict(params, cursor=cursor, limit=str(limit))
            links["next"] = self._self_link(path, urlencode(list(following.items())))
        body = {"data": data, "links": links, "meta": {"paging": paging}}
        if included:
            body["included"] = included
        return self._json_reply(200, body, route.success_schema)

    def _product(self, route, path, params, id_):
        """One of the app's products (`GET /v1/subscriptions/{id}`, `GET /v2/inAppPurchases/{id}`): its productId
        (given with `--products` as {"id": "productId"}, from `--products-from-campaign`, or the catalog's) and
        the catalog's other attributes; `fields[…]` keeps the attributes named. 404 for an id not among
        `products`. A product given by id alone has no productId here: a client that needs one sees it missing."""
        collection = PRODUCT_READS[route.template]
        if id_ not in self.products[collection]:
            raise not_found(collection, id_)
        attributes = dict(self.catalog.product_attributes.get(id_, {}))
        if id_ in self.product_ids:
            attributes["productId"] = self.product_ids[id_]
        else:
            attributes.pop("productId", None)
        fields = params.get(f"fields[{collection}]")
        if fields is not None:
            wanted = set(fields.split(","))
            attributes = {name: value for name, value in attributes.items() if name in wanted}
        version = "v2" if collection == "inAppPurchases" else "v1"
        body = {"data": {"type": collection, "id": id_, "attributes": attributes,
                         "links": {"self": f"{self.base_url}/{version}/{collection}/{id_}"}},
                "links": {"self": f"{self.base_url}{path}"}}
        return self._json_reply(200, body, route.success_schema)

    def _lookup(self, route, path, params, id_):
        """A look-up list of the catalog (`--catalog`): apps, an app's subscription groups and in-app purchases,
        a group's subscriptions, a product's price points (`filter[territory]`, `include=territory`)."""
        what = LOOKUPS[route.template]
        items = self.catalog.list(what, id_)
        if items is None:
            parent = {"subscriptionGroups": "apps", "inAppPurchases": "apps", "subscriptions": "subscriptionGroups",
                      "subscriptionPricePoints": "subscriptions", "inAppPurchasePricePoints": "inAppPurchases"}[what]
            raise not_found(parent, id_)
        if "filter[territory]" in params:
            wanted = set(params["filter[territory]"].split(","))
            items = [item for item in items if item["territory"] in wanted]
        limit, offset = self._window(params)
        page = items[offset:offset + limit]
        include = "territory" in params.get("include", "").split(",")
        data, territories = [], {}
        for item in page:
            resource = {"type": item["type"], "id": item["id"], "attributes": dict(item["attributes"])}
            fields = params.get(f"fields[{item['type']}]")
            if fields is not None:
                wanted_fields = set(fields.split(","))
                resource["attributes"] = {k: v for k, v in resource["attributes"].items() if k in wanted_fields}
            if include:
                resource["relationships"] = {"territory": {"data": {"type": "territories", "id": item["territory"]}}}
                territories[item["territory"]] = self._territory_resource(item["territory"])
            version = "v2" if item["type"] == "inAppPurchases" else "v1"
            resource["links"] = {"self": f"{self.base_url}/{version}/{item['type']}/{item['id']}"}
            data.append(resource)
        return self._paged_reply(route, path, params, data, len(items), limit, offset, list(territories.values()))

    @staticmethod
    def _encode_cursor(offset):
        return base64.urlsafe_b64encode(json.dumps({"offset": str(offset)}).encode()).decode().rstrip("=")

    @staticmethod
    def _decode_cursor(cursor):
        """The offset of a cursor `_encode_cursor` wrote: base64url of `{"offset": "DIGITS"}` (a string of at
        most 9 digits, as written); 400 PARAMETER_ERROR.INVALID for anything else."""
        decoded = None
        if len(cursor) <= 200:
            try:
                decoded = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
            except (ValueError, RecursionError):  # binascii.Error and UnicodeDecodeError are ValueErrors
                decoded = None
        offset = decoded.get("offset") if isinstance(decoded, dict) and set(decoded) == {"offset"} else None
        if not isinstance(offset, str) or not re.fullmatch(r"[0-9]{1,9}", offset):
            raise ApiError.one(400, "PARAMETER_ERROR.INVALID", "A parameter has an invalid value",
                               f"'{cursor}' is not a valid cursor for this request", parameter="cursor")
        return int(offset)

    def _values(self, route, id_):
        kind = KINDS[route.segments[1]]
        resource = self._find(kind.type, id_)
        with self.lock:
            resource.values_requests += 1
            not_ready = resource.values_requests <= self.config["valuesNotReady"]
            if not_ready:
                self._count("valuesNotReadyAnswers")
            empty = self.config["valuesNotReadyKind"] == "empty"
            header = self.config["valuesHeader"]
        if not_ready:
            if empty:
                return Reply(200, b"", "text/csv")
            raise not_found(kind.type.replace("OneTimeUseCodes", "OneTimeUseCodeValues"), id_)
        codes = self._materialize(resource)
        text = ("Code\n" if header else "") + "".join(code + "\n" for code in codes)
        return Reply(200, text.encode("ascii"), "text/csv")

    def _materialize(self, resource):
        """The batch's codes: drawn from the seed fixed at creation, unique among all the stand-in's codes."""
        with self.lock:
            if resource.values is not None:
                return resource.values
            count, seed = resource.attributes["numberOfCodes"], resource.values_seed
        rng = random.Random(seed)
        codes, seen = [], set()
        while len(codes) < count:
            code = "".join(rng.choices(CODE_ALPHABET, k=CODE_LENGTH))
            if code not in seen:
                seen.add(code)
                codes.append(code)
        with self.lock:
            if resource.values is None:
                clashes = seen & self.all_codes
                while clashes:
                    for code in clashes:
                        codes.remove(code)
                        seen.discard(code)
                    while len(codes) < count:
                        code = "".join(rng.choices(CODE_ALPHABET, k=CODE_LENGTH))
                        if code not in seen:
                            seen.add(code)
                            codes.append(code)
                    clashes = seen & self.all_codes
                self.all_codes |= seen
                resource.values = codes
            return resource.values

    # -- serialization ------------------------------------------------------------------------

    def _serialize(self, resource, params=None, included=None):
        """The resource as Apple's response schema shapes it; call under the lock. With `included` (a list) and
        `include=prices`, an offer's prices (`limit[prices]` of them) are listed and appended to `included`."""
        kind = resource.kind
        self_url = f"{self.base_url}/{kind.version}/{kind.type}/{resource.id}"
        item = {"type": kind.type, "id": resource.id}
        if kind.role != "price":
            item["attributes"] = dict(resource.attributes)
        relationships = {}

        def related(name):
            return {"links": {"self": f"{self_url}/relationships/{name}", "related": f"{self_url}/{name}"}}

        def to_one(type_, id_):
            return {"data": {"type": type_, "id": id_}}

        if kind.role == "offer":
            if kind.family == "subscription":
                relationships["subscription"] = to_one("subscriptions", resource.product[1])
            for name in ("oneTimeUseCodes", "customCodes", "prices"):
                relationships[name] = related(name)
        elif kind.role in ("oneTimeUse", "custom"):
            if kind.family == "subscription":
                relationships["offerCode"] = to_one(kind.offer_type, resource.parent[1])
            if kind.role == "oneTimeUse":
                relationships["values"] = {"links": {"related": f"{self_url}/values"}}
        elif kind.role == "subscriptionOffer":
            if kind.shows_subscription:
                relationships["subscription"] = to_one("subscriptions", resource.product[1])
            relationships["prices"] = related("prices")
            if included is not None and "prices" in self._includes(params):
                limit = int((params or {}).get("limit[prices]", PRICES_INCLUDED_DEFAULT))
                shown = resource.prices[:limit]
                relationships["prices"]["data"] = [{"type": kind.price_type, "id": id_} for id_ in shown]
                relationships["prices"]["meta"] = {"paging": {"total": len(resource.prices), "limit": limit}}
                included += [self._serialize(self.resources[id_], params) for id_ in shown]
        else:
            # Prices and introductory offers: the territory and price point a client tells them apart by.
            if kind.role == "introductory":
                relationships["subscription"] = to_one("subscriptions", resource.product[1])
            relationships["territory"] = to_one("territories", resource.relationships["territory"])
            if resource.relationships["pricePoint"] is not None:
                relationships[kind.price_point_relationship] = to_one(kind.price_point_type,
                                                                      resource.relationships["pricePoint"])
        if relationships:
            item["relationships"] = relationships
        item["links"] = {"self": self_url}
        return self._apply_fields(item, params)

    @staticmethod
    def _apply_fields(item, params):
        """Keeps only the attributes and relationships `fields[type]` names, when it is given."""
        fields = (params or {}).get(f"fields[{item['type']}]")
        if fields is not None:
            wanted = set(fields.split(","))
            for section in ("attributes", "relationships"):
                if section in item:
                    item[section] = {key: value for key, value in item[section].items() if key in wanted}
                    if not item[section]:
                        del item[section]
        return item

    @staticmethod
    def _includes(params):
        return set((params or {}).get("include", "").split(",")) - {""}

    def _included(self, resources, params):
        """The territories and subscription price points `include` names for `resources` (introductory offers,
        prices), each once; call under the lock."""
        names, found = self._includes(params), {}
        for resource in resources:
            if resource.kind.role not in ("introductory", "price") or \
                    resource.kind.price_point_type != "subscriptionPricePoints":
                continue
            territory, point = resource.relationships["territory"], resource.relationships["pricePoint"]
            if "territory" in names and ("territories", territory) not in found:
                found[("territories", territory)] = self._territory_resource(territory)
            if "subscriptionPricePoint" in names and point is not None and ("point", point) not in found:
                found[("point", point)] = self._price_point_resource(resource.product[1], point)
        return [self._apply_fields(item, params) for item in found.values()]

    def _territory_resource(self, territory):
        """A `territories` resource; its currency when the catalog prices the territory."""
        item = {"type": "territories", "id": territory}
        if territory in self.catalog.prices:
            item["attributes"] = {"currency": self.catalog.currency(territory)}
        item["links"] = {"self": f"{self.base_url}/v1/territories/{territory}"}
        return item

    def _price_point_resource(self, product_id, point_id):
        """A `subscriptionPricePoints` resource: the catalog's (amounts, territory) when it has the point."""
        item = {"type": "subscriptionPricePoints", "id": point_id}
        point = self.catalog.subscription_price_point(product_id, point_id)
        if point is not None:
            item["attributes"] = dict(point["attributes"])
            item["relationships"] = {"territory": {"data": {"type": "territories", "id": point["territory"]}}}
        item["links"] = {"self": f"{self.base_url}/v1/subscriptionPricePoints/{point_id}"}
        return item

    def _self_link(self, path, query):
        return self.base_url + path + (f"?{query}" if query else "")

    def _json_reply(self, status, body, schema, headers=None):
        failures = self.book.response_failures(schema, body)
        with self.lock:
            self._count("responsesValidated")
            if failures:
                self._count("responseSchemaFailures")
                if len(self.counters["responseSchemaFailureLog"]) < 50:
                    self.counters["responseSchemaFailureLog"].extend(failures[:5])
        if failures:
            print(f"stand-in answer breaks Apple's schema: {failures[:3]}", file=sys.stderr)
        return Reply(status, json.dumps(body, separators=(",", ":")).encode("utf-8"), "application/json", headers)

    def _error_reply(self, error):
        reply = self._json_reply(error.status, error.body(), "ErrorResponse", error.headers)
        return reply

    def _log_write(self, method, path, status, outcome, resource):
        """Appends to the log of POSTs and PATCHes, and remembers the entry as this thread's request's."""
        entry = {"method": method, "path": path, "status": status, "outcome": outcome,
                 "type": resource.kind.type if resource else None, "id": resource.id if resource else None}
        with self.lock:
            entry = {"seq": len(self.posts) + 1, **entry}
            self.posts.append(entry)
        self._written.entry = entry

    def _relabel(self, method, path, note):
        """Notes a fault's effect on the logged POST or PATCH: this request's entry (each request is handled on a
        thread of its own), not the newest of its path, which may be a concurrent request's."""
        if method not in ("POST", "PATCH"):
            return
        entry = getattr(self._written, "entry", None)
        with self.lock:
            if entry is not None and entry["method"] == method and entry["path"] == path:
                entry["outcome"] += f"; {note}"
            else:
                standin_support.relabel_last(self.posts, method, path, note)


# ---------------------------------------------------------------------------------------------
# HTTP
# ---------------------------------------------------------------------------------------------

class Handler(standin_support.Handler):
    """HTTP/1.1 with keep-alive (standin_support.Handler); every answer carries `X-Rate-Limit`."""

    server_version = "AppStoreConnectStandIn/1"
    max_body_bytes = MAX_BODY_BYTES

    def unreadable_body_reply(self, app):
        return app._error_reply(ApiError.one(400, "PARAMETER_ERROR.INVALID", "The request cannot be read",
                                             "The request body's length is missing, invalid or above 16 MB."))

    def extra_headers(self, app):
        with app.lock:
            rate = app.window.header(time.time())
        return [f"X-Rate-Limit: {rate}"]


# ---------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------

def fail(message):
    standin_support.fail("app_store_connect.py", message)


def read_json(path, what):
    try:
        with open(path, "rb") as handle:
            return json.loads(handle.read().decode("utf-8"))
    except (OSError, ValueError) as error:
        fail(f"cannot read {what} {path}: {error}")


def products_from_campaign(campaign):
    """{"subscriptions": {id: productId}, "inAppPurchases": {id: productId}} from a campaign file's
    offers[].product and the subscriptions of its promotionalOffers, introductoryOffers and winBackOffers (the first
    productId the campaign gives a product; None when it gives none)."""
    products = {"subscriptions": {}, "inAppPurchases": {}}
    campaign = campaign if isinstance(campaign, dict) else {}
    for member, holder in (("offers", "product"), ("promotionalOffers", "subscription"),
                           ("introductoryOffers", "subscription"), ("winBackOffers", "subscription")):
        for index, offer in enumerate(campaign.get(member, [])):
            product = offer.get(holder) if isinstance(offer, dict) else None
            if not isinstance(product, dict) or not isinstance(product.get("id"), str):
                fail(f"the campaign's {member}[{index}].{holder} has no \"id\"")
            subscription = holder == "subscription" or product.get("type") == "AUTO_RENEWABLE_SUBSCRIPTION"
            key = "subscriptions" if subscription else "inAppPurchases"
            if product["id"] not in products[key]:
                product_id = product.get("productId")
                products[key][product["id"]] = product_id if isinstance(product_id, str) else None
    return products


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--schemas", required=True, help="offer_code_schemas_4.4.1.json")
    parser.add_argument("--paths", help="offer_code_paths_<version>.json (default: next to --schemas; the "
                        "operations served of subscription_offers_paths_<version>.json next to --schemas are added)")
    parser.add_argument("--public-key", required=True, help="the API key's public key (PEM)")
    parser.add_argument("--key-id", required=True, help="the kid tokens must carry")
    parser.add_argument("--issuer-id", help="the iss tokens must carry (team keys)")
    parser.add_argument("--individual", action="store_true", help="individual key: sub = user, no iss")
    parser.add_argument("--products", help='JSON {"subscriptions": [ids], "inAppPurchases": [ids]}, or '
                        '{"id": "productId", ...} in place of a list (the productId GET /v1/subscriptions/{id} answers)')
    parser.add_argument("--products-from-campaign", help="derive --products from a campaign file")
    parser.add_argument("--catalog", help="JSON file of apps, subscription groups, subscriptions, in-app purchases "
                        "and prices the look-ups list (their products are the app's products too)")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default 0: any free port)")
    parser.add_argument("--today", help="YYYY-MM-DD: the day the rules count from (default: the UTC date)")
    parser.add_argument("--accept-opaque-price-points", action="store_true",
                        help="accept price point ids that are not Apple-shaped (base64url JSON)")
    parser.add_argument("--verbose", action="store_true", help="log every request to stderr")
    arguments = parser.parse_args(argv)
    if arguments.individual == bool(arguments.issuer_id):
        fail("give exactly one of --issuer-id (team key) and --individual")
    if arguments.products and arguments.products_from_campaign:
        fail("give at most one of --products and --products-from-campaign")
    if not (arguments.products or arguments.products_from_campaign or arguments.catalog):
        fail("give --products, --products-from-campaign or --catalog")
    if arguments.today is not None:
        try:
            if not DATE.match(arguments.today):
                raise ValueError
            datetime.date.fromisoformat(arguments.today)
        except ValueError:
            fail(f"--today must be YYYY-MM-DD, not {arguments.today!r}")
    return arguments


def build(arguments):
    """The StandIn for parsed arguments (exits 2 on unusable input)."""
    # Every set of the version beside --schemas (validate_asc_requests.load_sets), so that the schemas of both
    # sets' operations resolve: the offer codes' operations, and of the subscription_offers set the look-ups and
    # the offer operations the stand-in serves.
    version, schemas, _ = asc_schemas.load_sets(arguments.schemas)
    folder = os.path.dirname(os.path.abspath(arguments.schemas))
    paths_file = arguments.paths or os.path.join(folder, f"offer_code_paths_{version}.json")
    paths = read_json(paths_file, "paths file").get("paths")
    if not isinstance(paths, dict):
        fail(f"{paths_file} has no top-level \"paths\" object")
    offers_file = os.path.join(folder, f"subscription_offers_paths_{version}.json")
    if os.path.exists(offers_file):
        offer_paths = read_json(offers_file, "paths file").get("paths")
        if not isinstance(offer_paths, dict):
            fail(f"{offers_file} has no top-level \"paths\" object")
        for method, template in [("get", template) for template in list(LOOKUPS) + list(PRODUCT_READS)] \
                + list(SUBSCRIPTION_OFFER_OPERATIONS):
            if method in offer_paths.get(template, {}):
                paths.setdefault(template, {})[method] = offer_paths[template][method]
    catalog = read_json(arguments.catalog, "catalog") if arguments.catalog else None
    if arguments.products:
        try:
            products = json.loads(arguments.products)
        except ValueError as error:
            fail(f"--products is not JSON: {error}")
        if not isinstance(products, dict) or set(products) - {"subscriptions", "inAppPurchases"} or not all(
                (isinstance(ids, list) and all(isinstance(i, str) for i in ids))
                or (isinstance(ids, dict) and all(isinstance(p, str) for p in ids.values()))
                for ids in products.values()):
            fail('--products must be {"subscriptions": ["id", ...], "inAppPurchases": ["id", ...]}, or with '
                 '{"id": "productId", ...} in place of a list')
    elif arguments.products_from_campaign:
        products = products_from_campaign(read_json(arguments.products_from_campaign, "campaign"))
    else:
        products = {}
    key = standin_support.load_public_key(arguments.public_key, fail)
    verifier = TokenVerifier(key, arguments.key_id, arguments.issuer_id, arguments.individual)
    try:
        return StandIn(schemas, paths, verifier, products, today=arguments.today,
                       accept_opaque_price_points=arguments.accept_opaque_price_points, verbose=arguments.verbose,
                       catalog=catalog)
    except ValueError as error:
        fail(f"the catalog {arguments.catalog}: {error}")


def main(argv):
    arguments = parse_arguments(argv)
    app = build(arguments)
    return standin_support.serve(app, arguments.port, Handler, fail)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

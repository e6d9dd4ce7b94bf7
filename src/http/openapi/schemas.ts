// The JSON schemas of every body the API takes and gives, generated at compile time by typia from
// the same types that validate requests and type responses: nothing here is written by hand.
import typia from 'typia';
import type { WireBatch, WireEvent } from '../../api/event.js';
import type { WireCatalog } from '../../api/product.js';
import type { RecommendationParams } from '../../api/recommendation-query.js';
import type { StatsAnswer } from '../../analytics/statistics.js';
import type { WireExperiment } from '../../api/experiment.js';
import type { RuleDeleted, RuleList, RulePreview, RulePreviewRequest, RuleStored, RuleView, WireRule } from '../../api/rule.js';
import type { RegisteredWidgets, WireWidgets } from '../../api/widgets.js';
import type { ShopRecency, WireRecency } from '../../api/recency.js';
import type { ShopCurrency, WireCurrency } from '../../api/currency.js';
import type { ConnectionView, DeliveryAnswer, FeedView, WireFeed, WireShopifyConnection, WireWooConnection } from '../../api/integrations.js';
import type {
  CatalogPage,
  CatalogPageParams,
  CatalogProduct,
  DashboardExperiments,
  ExperimentList,
  ExperimentView,
  ExperimentWithResults,
  Health,
  CustomerErased,
  CustomerEventsParams,
  CustomerExport,
  ProductDeleted,
  ProductsUpserted,
  RecommendationResponse,
  ShopErased,
  ShopErasureParams,
  ShopInfo,
  ShopModel,
  StatsParams,
} from '../../api/responses.js';
import type { ProblemBody } from '../../errors.js';
import type { BatchResponse, EventAck } from '../../app/track-events.js';
// The WebSocket channel's messages are documented beside the HTTP ones (the document covers the API).
import type { ClientMessage, RecommendationsMessage, ServerMessage } from '../../ws/protocol.js';

export const SCHEMAS = typia.json.schemas<
  [
    RecommendationParams,
    RecommendationResponse,
    WireEvent,
    EventAck,
    WireBatch,
    BatchResponse,
    WireCatalog,
    ProductsUpserted,
    CatalogProduct,
    CatalogPageParams,
    CatalogPage,
    ShopInfo,
    ShopModel,
    WireWidgets,
    RegisteredWidgets,
    WireRecency,
    ShopRecency,
    WireCurrency,
    ShopCurrency,
    WireShopifyConnection,
    WireWooConnection,
    ConnectionView,
    WireFeed,
    FeedView,
    DeliveryAnswer,
    StatsParams,
    StatsAnswer,
    WireExperiment,
    ExperimentView,
    ExperimentList,
    ExperimentWithResults,
    DashboardExperiments,
    WireRule,
    RuleView,
    RuleList,
    RuleStored,
    RuleDeleted,
    RulePreviewRequest,
    RulePreview,
    ProductDeleted,
    CustomerEventsParams,
    CustomerExport,
    CustomerErased,
    ShopErasureParams,
    ShopErased,
    Health,
    ProblemBody,
    ClientMessage,
    ServerMessage,
    RecommendationsMessage,
  ],
  '3.1'
>();

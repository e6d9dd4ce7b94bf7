// Shopify's payloads as its documentation shows them (test/fixtures/shopify/*.json).
import { platformFixture, platformFixtureBytes } from '../fixtures.js';

export const fixtureBytes = (name: string): Buffer => platformFixtureBytes('shopify', name);
export const fixture = <T = Record<string, unknown>>(name: string): T => platformFixture<T>('shopify', name);

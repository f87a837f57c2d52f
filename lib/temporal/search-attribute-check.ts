/**
 * The worker's start-up check of the namespace's search attributes. A workflow that upserts an
 * attribute its namespace has not registered fails its workflow task, again and again, so the
 * exchange stalls; a worker started against such a namespace refuses to start instead, naming
 * what to register (the upgrade notes say to register a new attribute before upgrading). When the
 * namespace's attributes cannot be listed (credentials without operator rights), it warns and starts.
 */
import { temporal } from '@temporalio/proto';
import type { SearchAttributeType } from '@temporalio/common';
import type { Logger } from '../log';
import { SEARCH_ATTRIBUTE_FLAGS, SEARCH_ATTRIBUTES } from '../exchange/search-attributes';
import { StartError } from '../start-error';

const IndexedValueType = temporal.api.enums.v1.IndexedValueType;

/** A namespace that lacks a search attribute the workflows write, or has it with another type. */
export class SearchAttributesMissingError extends StartError {
  override readonly name = 'SearchAttributesMissingError';
}

/**
 * The service's search attributes (`Name=Type`, as the CLI takes them) that `registered` (the
 * namespace's custom attributes, name to indexed type) lacks or holds with another type.
 */
export function unregisteredSearchAttributes(registered: Record<string, number | null | undefined>): string[] {
  return SEARCH_ATTRIBUTES.flatMap((key, index) => {
    const wanted = IndexedValueType[`INDEXED_VALUE_TYPE_${key.type as SearchAttributeType}`];
    return registered[key.name] === wanted ? [] : [SEARCH_ATTRIBUTE_FLAGS[index]!];
  });
}

/** The one-line refusal: what to register, and the command that does. */
export function unregisteredMessage(namespace: string, missing: string[]): string {
  const commands = missing
    .map((flag) => {
      const [name, type] = flag.split('=');
      return `temporal operator search-attribute create --namespace ${namespace} --name ${name} --type ${type}`;
    })
    .join('; ');
  return `Temporal namespace ${namespace} lacks the search attributes ${missing.join(', ')} (or has them with another type): register them before starting this version (${commands})`;
}

interface OperatorService {
  listSearchAttributes(request: { namespace: string }): Promise<{
    customAttributes?: Record<string, number | null | undefined> | null;
  }>;
}

/** Refuses a start against a namespace that lacks an attribute; warns when it cannot tell. */
export async function checkSearchAttributes(operator: OperatorService, namespace: string, log: Logger): Promise<void> {
  let registered: Record<string, number | null | undefined>;
  try {
    registered = (await operator.listSearchAttributes({ namespace })).customAttributes ?? {};
  } catch (error) {
    log.warn(
      { err: error, namespace },
      'the namespace search attributes could not be listed: make sure every one in docs/operators.md is registered',
    );
    return;
  }
  const missing = unregisteredSearchAttributes(registered);
  if (missing.length > 0) throw new SearchAttributesMissingError(unregisteredMessage(namespace, missing));
}

/**
 * The suite's resources: a text one, a binary one, the one it subscribes to, and a URI template
 * whose variable must show up in what is read (with a completer for it).
 */
import { defineResource, defineResourceTemplate } from '@durable-mcp/handlers';
import { PNG } from './fixtures';

const TEMPLATE_IDS = ['1', '2', '3', '123'];

export const staticText = defineResource({
  resource: {
    uri: 'test://static-text',
    name: 'static-text',
    description: 'A static text resource.',
    mimeType: 'text/plain',
  },
  read: (uri) => ({
    contents: [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
  }),
});

export const staticBinary = defineResource({
  resource: {
    uri: 'test://static-binary',
    name: 'static-binary',
    description: 'A static binary resource (a PNG).',
    mimeType: 'image/png',
  },
  read: (uri) => ({ contents: [{ uri, mimeType: 'image/png', blob: PNG }] }),
});

export const watchedResource = defineResource({
  resource: {
    uri: 'test://watched-resource',
    name: 'watched-resource',
    description: 'A resource clients may subscribe to.',
    mimeType: 'text/plain',
  },
  read: (uri) => ({
    contents: [{ uri, mimeType: 'text/plain', text: 'This is the content of the watched resource.' }],
  }),
});

export const templateData = defineResourceTemplate({
  template: {
    uriTemplate: 'test://template/{id}/data',
    name: 'template-data',
    description: 'JSON data for the given ID.',
    mimeType: 'application/json',
  },
  complete: { id: (value) => TEMPLATE_IDS.filter((id) => id.startsWith(value)) },
  read: (uri, { id }) => ({
    contents: [
      {
        uri,
        mimeType: 'application/json',
        text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
      },
    ],
  }),
});

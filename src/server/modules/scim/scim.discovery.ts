import { SCHEMA } from './scim.protocol';
import { SCIM_MAX_RESULTS } from './scim.service';

/**
 * What the server tells a provider about itself (RFC 7643 §5-7): PATCH yes, bulk, sort, ETags and
 * password changes no, filters yes (the equality lookups listed in decision 060), a bearer token.
 */
export function serviceProviderConfig(baseUrl: string) {
  return {
    schemas: [SCHEMA.serviceProviderConfig],
    documentationUri: `${baseUrl.replace(/\/scim\/v2$/, '')}/api/docs`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: SCIM_MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description: 'A token created by an admin in Settings → Directory, sent as Authorization: Bearer scim_…',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  };
}

export function resourceTypes(baseUrl: string) {
  return [
    {
      schemas: [SCHEMA.resourceType],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: 'A recipient of the organization’s mail',
      schema: SCHEMA.user,
      schemaExtensions: [{ schema: SCHEMA.enterprise, required: false }],
      meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/User` },
    },
    {
      schemas: [SCHEMA.resourceType],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      description: 'A department or household whose members are recipients',
      schema: SCHEMA.group,
      schemaExtensions: [{ schema: SCHEMA.groupKind, required: false }],
      meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/Group` },
    },
  ];
}

const attr = (
  name: string,
  type: 'string' | 'boolean' | 'complex' | 'reference',
  extra: Record<string, unknown> = {},
) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

const typedValues = (name: string, subs: ReturnType<typeof attr>[]) =>
  attr(name, 'complex', {
    multiValued: true,
    subAttributes: [...subs, attr('type', 'string'), attr('primary', 'boolean')],
  });

/** The attributes kept (decision 060); providers may send more, which are accepted and not stored. */
export function schemas(baseUrl: string) {
  return [
    {
      schemas: [SCHEMA.schema],
      id: SCHEMA.user,
      name: 'User',
      description: 'A recipient',
      attributes: [
        attr('userName', 'string', { required: true, uniqueness: 'server' }),
        attr('name', 'complex', {
          subAttributes: [attr('givenName', 'string'), attr('familyName', 'string'), attr('formatted', 'string')],
        }),
        attr('displayName', 'string'),
        attr('preferredLanguage', 'string'),
        attr('active', 'boolean'),
        typedValues('emails', [attr('value', 'string')]),
        typedValues('phoneNumbers', [attr('value', 'string')]),
        typedValues('addresses', [attr('formatted', 'string')]),
        attr('groups', 'complex', {
          multiValued: true,
          mutability: 'readOnly',
          subAttributes: [attr('value', 'string'), attr('display', 'string')],
        }),
      ],
      meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${SCHEMA.user}` },
    },
    {
      schemas: [SCHEMA.schema],
      id: SCHEMA.enterprise,
      name: 'EnterpriseUser',
      description: 'Enterprise User: the department',
      attributes: [attr('department', 'string')],
      meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${SCHEMA.enterprise}` },
    },
    {
      schemas: [SCHEMA.schema],
      id: SCHEMA.group,
      name: 'Group',
      description: 'A department or household',
      attributes: [
        attr('displayName', 'string', { required: true, uniqueness: 'server' }),
        attr('members', 'complex', {
          multiValued: true,
          subAttributes: [attr('value', 'string', { mutability: 'immutable' }), attr('$ref', 'reference')],
        }),
      ],
      meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${SCHEMA.group}` },
    },
    {
      schemas: [SCHEMA.schema],
      id: SCHEMA.groupKind,
      name: 'PigeonholeGroup',
      description:
        'What the group is at the desk: a department (its name becomes its members’ department) or a household (its members may collect each other’s mail); set when the group is created',
      attributes: [attr('kind', 'string', { mutability: 'immutable', canonicalValues: ['department', 'household'] })],
      meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${SCHEMA.groupKind}` },
    },
  ];
}

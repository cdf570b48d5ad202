// Steward on Azure, one small topology: App Service (Linux, Node 24) running every role in one
// process, Azure Database for PostgreSQL flexible server, an Azure Bot with its Teams channel and
// messaging endpoint, Key Vault for the secrets, and one user-assigned managed identity that is the
// bot's identity (MicrosoftAppType=UserAssignedMSI), reads the Key Vault and calls Microsoft Graph.
//
// Deployed by the Agents Toolkit's provision stage (m365agents.yml, arm/deploy) or with
//   az deployment group create -g <group> -f infra/main.bicep -p infra/main.parameters.json
// It has not been deployed from the project's own machines (no Azure access there): review it.
// After deploying, an administrator grants the identity's service principal Steward's Graph
// application permissions and the INTEGRATION_MANAGER app role of the API
// (docs/guides/deploying.md); Bicep cannot consent. The API's app registration and its app roles are not made here but
// by the Toolkit from aad.manifest.json (aadApp/update), which CI checks: declaring them in Bicep
// takes the Microsoft Graph Bicep extension, which no compiler available here can check.

@description('Prefix of every resource name; lower-case letters and digits.')
@minLength(3)
@maxLength(16)
param resourceBaseName string

param location string = resourceGroup().location

@description('The Microsoft cloud Steward runs in (STEWARD_CLOUD): public, usgov, usgovdod or china.')
@allowed(['public', 'usgov', 'usgovdod', 'china'])
param cloud string = 'public'

@description('App Service plan size; B1 is enough for a pilot, P1v3 for production.')
param appServiceSku string = 'B1'

@description('PostgreSQL administrator login name.')
param postgresAdminLogin string = 'steward'

@description('PostgreSQL administrator password; kept only in Key Vault (as the connection string).')
@secure()
param postgresAdminPassword string

@description('Signing secret of report URLs shared by every process (32+ characters).')
@secure()
param stewardAuthSecret string = '${newGuid()}${newGuid()}'

@description('Client id of the Steward API\'s Entra ID app registration (aad.manifest.json): the `aud` of its v2.0 tokens (STEWARD_AUTH_AUDIENCE).')
param apiAudience string

@description('OAuth connection name on the bot for Teams SSO (STEWARD_BOT_OAUTH_CONNECTION).')
param oauthConnectionName string = 'steward-api'

@description('The id of Steward\'s Teams app manifest (STEWARD_TEAMS_APP_ID): the Toolkit\'s TEAMS_APP_ID, or what `npm run manifest` wrote; empty, the bot\'s id (the manifest\'s default).')
param teamsAppId string = ''

var tenantId = tenant().tenantId
var appName = '${resourceBaseName}-app'
var loginHost = environment().authentication.loginEndpoint

resource identity 'Microsoft.ManagedIdentity/userAssignedIdentities@2023-01-31' = {
  name: '${resourceBaseName}-identity'
  location: location
}

resource vault 'Microsoft.KeyVault/vaults@2023-07-01' = {
  name: '${resourceBaseName}-kv'
  location: location
  properties: {
    tenantId: tenantId
    sku: { family: 'A', name: 'standard' }
    enableRbacAuthorization: true
    enableSoftDelete: true
    softDeleteRetentionInDays: 7
  }
}

// Key Vault Secrets User: the identity reads the secrets App Service resolves into settings.
resource secretsUser 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  scope: vault
  name: guid(vault.id, identity.id, 'secrets-user')
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', '4633458b-17de-408a-b874-0445c86b69e6')
    principalId: identity.properties.principalId
    principalType: 'ServicePrincipal'
  }
}

resource postgres 'Microsoft.DBforPostgreSQL/flexibleServers@2023-06-01-preview' = {
  name: '${resourceBaseName}-pg'
  location: location
  sku: { name: 'Standard_B1ms', tier: 'Burstable' }
  properties: {
    version: '16'
    administratorLogin: postgresAdminLogin
    administratorLoginPassword: postgresAdminPassword
    storage: { storageSizeGB: 32 }
    backup: { backupRetentionDays: 7, geoRedundantBackup: 'Disabled' }
    highAvailability: { mode: 'Disabled' }
  }
}

resource database 'Microsoft.DBforPostgreSQL/flexibleServers/databases@2023-06-01-preview' = {
  parent: postgres
  name: 'steward'
}

// 0.0.0.0–0.0.0.0 admits Azure services (the App Service) only; use a private endpoint for more.
resource allowAzure 'Microsoft.DBforPostgreSQL/flexibleServers/firewallRules@2023-06-01-preview' = {
  parent: postgres
  name: 'AllowAzureServices'
  properties: { startIpAddress: '0.0.0.0', endIpAddress: '0.0.0.0' }
}

resource databaseUrl 'Microsoft.KeyVault/vaults/secrets@2023-07-01' = {
  parent: vault
  name: 'steward-database-url'
  properties: {
    value: 'postgres://${postgresAdminLogin}:${uriComponent(postgresAdminPassword)}@${postgres.properties.fullyQualifiedDomainName}:5432/steward?sslmode=require'
  }
}

resource authSecret 'Microsoft.KeyVault/vaults/secrets@2023-07-01' = {
  parent: vault
  name: 'steward-auth-secret'
  properties: { value: stewardAuthSecret }
}

resource plan 'Microsoft.Web/serverfarms@2023-12-01' = {
  name: '${resourceBaseName}-plan'
  location: location
  kind: 'linux'
  sku: { name: appServiceSku }
  properties: { reserved: true }
}

resource app 'Microsoft.Web/sites@2023-12-01' = {
  name: appName
  location: location
  identity: {
    type: 'UserAssigned'
    userAssignedIdentities: { '${identity.id}': {} }
  }
  properties: {
    serverFarmId: plan.id
    httpsOnly: true
    keyVaultReferenceIdentity: identity.id
    siteConfig: {
      linuxFxVersion: 'NODE|24-lts'
      appCommandLine: 'node dist/main.js'
      alwaysOn: appServiceSku != 'F1'
      healthCheckPath: '/healthz'
      minTlsVersion: '1.2'
      ftpsState: 'Disabled'
    }
  }
}

// The app's own host name (azurewebsites.net, .us or chinacloudsites.cn by cloud) is known once it exists.
var publicHost = app.properties.defaultHostName

resource settings 'Microsoft.Web/sites/config@2023-12-01' = {
  parent: app
  name: 'appsettings'
  properties: {
    // App Service sets PORT; Steward listens on it, on every interface, known by its public URL.
    STEWARD_HOST: '0.0.0.0'
    STEWARD_PUBLIC_URL: 'https://${publicHost}'
    STEWARD_CLOUD: cloud
    STEWARD_SEED_DEMO_DATA: 'false'
    STEWARD_TENANT_ID: tenantId
    STEWARD_DATABASE_URL: '@Microsoft.KeyVault(SecretUri=${databaseUrl.properties.secretUri})'
    STEWARD_AUTH_SECRET: '@Microsoft.KeyVault(SecretUri=${authSecret.properties.secretUri})'
    STEWARD_AUTH_MODE: 'entra'
    STEWARD_AUTH_JWKS_URI: '${loginHost}${tenantId}/discovery/v2.0/keys'
    STEWARD_AUTH_ISSUER: '${loginHost}${tenantId}/v2.0'
    STEWARD_AUTH_AUDIENCE: apiAudience
    STEWARD_BOT_OAUTH_CONNECTION: oauthConnectionName
    MicrosoftAppType: 'UserAssignedMSI'
    MicrosoftAppId: identity.properties.clientId
    MicrosoftAppTenantId: tenantId
    STEWARD_PLATFORM: 'graph'
    STEWARD_GRAPH_TENANT_ID: tenantId
    STEWARD_GRAPH_CLIENT_ID: identity.properties.clientId
    STEWARD_GRAPH_MANAGED_IDENTITY: 'true'
    // Steward finds its app in the organisation's catalog by the manifest's id (empty: MicrosoftAppId).
    STEWARD_TEAMS_APP_ID: teamsAppId
    // The Toolkit's zip deploy uploads dist/ already built: App Service installs production packages only.
    SCM_DO_BUILD_DURING_DEPLOYMENT: 'true'
    NODE_ENV: 'production'
  }
  dependsOn: [secretsUser]
}

resource bot 'Microsoft.BotService/botServices@2022-09-15' = {
  name: resourceBaseName
  location: 'global'
  kind: 'azurebot'
  sku: { name: 'S1' }
  properties: {
    displayName: 'Steward'
    endpoint: 'https://${publicHost}/api/messages'
    msaAppId: identity.properties.clientId
    msaAppType: 'UserAssignedMSI'
    msaAppMSIResourceId: identity.id
    msaAppTenantId: tenantId
  }
}

resource teamsChannel 'Microsoft.BotService/botServices/channels@2022-09-15' = {
  parent: bot
  name: 'MsTeamsChannel'
  location: 'global'
  properties: {
    channelName: 'MsTeamsChannel'
    properties: { isEnabled: true }
  }
}

// Written to the Toolkit's env/.env.<env> under these names, and used by the manifest's placeholders.
output BOT_ID string = identity.properties.clientId
output BOT_TENANT_ID string = tenantId
output PUBLIC_HOST string = publicHost
output WEBSITE_URL string = 'https://${publicHost}/'
output PRIVACY_URL string = 'https://${publicHost}/'
output TERMS_URL string = 'https://${publicHost}/'
output AZURE_APP_SERVICE_RESOURCE_ID string = app.id
output IDENTITY_PRINCIPAL_ID string = identity.properties.principalId

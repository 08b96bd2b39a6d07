export const CLIENT_NAME = '@petstore/client'

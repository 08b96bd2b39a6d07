export const SERVICE_NAME = 'petstore'

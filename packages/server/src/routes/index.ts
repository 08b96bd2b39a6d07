/**
 * The routes of every resource, one folder under routes/ each: a resource the spec adds is a
 * line here (app.ts registers this table with the others, and the compiler names an operation
 * that has no route).
 */
import type { RouteDeps } from './collection.js'
import { createOrderRoutes } from './orders/handlers.js'
import { createPetRoutes } from './pets/handlers.js'

export function resourceRoutes(deps: RouteDeps) {
  return { ...createPetRoutes(deps), ...createOrderRoutes(deps) }
}

import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseProperties } from './common';

/**
 * The employee and student directory (`people`, spec 1 §3 "Person search result", spec 2 §7.5). Non-employees
 * carry one of the IS codes of spec 2 §9.3 as their employee id. Searched by contains on employee id, email, or
 * last and first name together.
 */
export const PersonSchema = defineEntity({
  name: 'Person',
  tableName: 'people',
  properties: {
    ...baseProperties,
    employeeId: p.string().index(),
    email: p.string().nullable().index(),
    lastName: p.string().index(),
    firstName: p.string(),
    middleInitial: p.string().nullable(),
    title: p.string().nullable(),
    workPhone: p.string().nullable(),
    birthDate: p.datetime().nullable(),
    hireDate: p.datetime().nullable(),
    employmentStatus: p.string().default('A'),
    terminationDate: p.datetime().nullable(),
    personType: p.string(), // Employee or Student
  },
});
export type Person = InferEntity<typeof PersonSchema>;

/**
 * Every admin operation, in `/openapi.json` order (DESIGN D9). Add an operation by declaring it in
 * its family's file and listing it here: the router, the OpenAPI document, the MCP tools, the
 * scope map and docs/mcp.md's table follow.
 */
import type { Operation } from './operation.js';
import { getSite, updateSite, listApplications, createApplication, getApplication, updateApplication, rotateApplicationSecret, deleteApplication } from './site.js';
import { listCourses, getCourse, createCourse, updateCourse, publishCourse, getCurriculum, addLecture, removeLecture, listSections, createSection, setLectureSection } from './courses.js';
import { listStudents, enrollStudent, unenrollStudent, listMembers, grantMemberRole, revokeMemberRole } from './people.js';
import { listConnectedGrants, revokeConnectedGrant, revokeClientGrants, listAuditEvents } from './connections.js';
import { listInvitations, getInvitation, createInvitation, revokeInvitation } from './invitations.js';
import { PAGE_OPERATIONS, POST_OPERATIONS, getAppearance, setAppearance } from './content.js';
import { LECTURER_OPERATIONS } from './lecturers.js';
import { FEEDBACK_OPERATIONS } from './feedback.js';
import { uploadFile, getFile, deleteFile } from './files.js';
import {
  listMembershipPlans,
  getMembershipPlan,
  createMembershipPlan,
  updateMembershipPlan,
  archiveMembershipPlan,
  listSubscriptions,
  getSubscription,
  createSubscription,
  cancelSubscription,
  listDigitalProducts,
  getDigitalProduct,
  createDigitalProduct,
  updateDigitalProduct,
  publishDigitalProduct,
  unpublishDigitalProduct,
} from './memberships.js';
import { listOrders, siteAnalytics, listEvents, getEvent, createEvent, cancelEvent, listCoupons, getCoupon, createCoupon, deactivateCoupon } from './business.js';

export const OPERATIONS: readonly Operation[] = [
  getSite,
  updateSite,
  listApplications,
  createApplication,
  getApplication,
  updateApplication,
  rotateApplicationSecret,
  deleteApplication,
  listConnectedGrants,
  revokeConnectedGrant,
  revokeClientGrants,
  listAuditEvents,
  listCourses,
  getCourse,
  createCourse,
  updateCourse,
  publishCourse,
  getCurriculum,
  addLecture,
  listSections,
  createSection,
  setLectureSection,
  removeLecture,
  listStudents,
  enrollStudent,
  unenrollStudent,
  listMembers,
  grantMemberRole,
  revokeMemberRole,
  listInvitations,
  createInvitation,
  getInvitation,
  revokeInvitation,
  listOrders,
  siteAnalytics,
  listEvents,
  getEvent,
  createEvent,
  cancelEvent,
  listCoupons,
  getCoupon,
  createCoupon,
  deactivateCoupon,
  getAppearance,
  setAppearance,
  ...PAGE_OPERATIONS,
  ...POST_OPERATIONS,
  ...LECTURER_OPERATIONS,
  ...FEEDBACK_OPERATIONS,
  uploadFile,
  getFile,
  deleteFile,
  listMembershipPlans,
  createMembershipPlan,
  getMembershipPlan,
  updateMembershipPlan,
  listSubscriptions,
  createSubscription,
  getSubscription,
  cancelSubscription,
  archiveMembershipPlan,
  listDigitalProducts,
  createDigitalProduct,
  getDigitalProduct,
  updateDigitalProduct,
  publishDigitalProduct,
  unpublishDigitalProduct,
];

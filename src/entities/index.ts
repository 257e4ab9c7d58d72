import { ApiKey } from './api-key.entity';
import { AppApiKey } from './app-api-key.entity';
import { AppInstance } from './app-instance.entity';
import { Cluster, ClusterChild } from './cluster.entity';
import { Component } from './component.entity';
import { DataModel } from './data-model.entity';
import { DataSourceRecord } from './data-source.entity';
import { Job } from './job.entity';
import { LedgerEntry } from './ledger-entry.entity';
import { Project } from './project.entity';
import { Session } from './session.entity';
import { User } from './user.entity';
import { Wallet } from './wallet.entity';

export const ENTITIES = [
  User,
  Session,
  ApiKey,
  Wallet,
  LedgerEntry,
  Job,
  DataSourceRecord,
  Project,
  Component,
  Cluster,
  ClusterChild,
  DataModel,
  AppApiKey,
  AppInstance,
];
